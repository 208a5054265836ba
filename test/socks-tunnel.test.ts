import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { checkProxy, ProxyError, tunnel } from '../src/browser/proxy/tunnel.ts';
import { parseProxyUrl } from '../src/browser/proxy/proxy-url.ts';
import { startSocksProxy, type TestProxy } from './helpers/proxies.ts';

// Our SOCKS5 client is the `socks` library; these hold it to what our own
// handshake guaranteed, against a real SOCKS5 server on 127.0.0.1.
const PASS = 'p@ss:w0rd/with=odd';

describe('SOCKS5 tunnel (the socks library)', () => {
  let proxy: TestProxy;
  let site: http.Server;
  let sitePort = 0;
  before(async () => {
    proxy = await startSocksProxy('alice', PASS);
    site = http.createServer((_req, res) => res.end('through the tunnel')).listen(0, '127.0.0.1');
    await new Promise((resolve) => site.once('listening', resolve));
    sitePort = (site.address() as AddressInfo).port;
  });
  after(async () => {
    await proxy?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  const spec = (user: string, pass: string) => parseProxyUrl(`socks5://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${proxy.port}`);

  test('with the right credentials: a socket to the destination that carries a request', async () => {
    const socket = await tunnel(spec('alice', PASS), '127.0.0.1', sitePort, AbortSignal.timeout(5000));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const body = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('close', () => resolve(text));
    });
    assert.match(body, /through the tunnel/);
    await checkProxy(spec('alice', PASS), 5000);
  });

  test('wrong or missing credentials: an auth verdict that names the proxy without the credentials', async () => {
    for (const [s, message] of [
      [spec('alice', 'wrong-secret'), /rejected the user name or password/],
      [parseProxyUrl(`socks5://127.0.0.1:${proxy.port}`), /requires credentials|accepts none/],
    ] as const) {
      const error = await checkProxy(s, 5000).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof ProxyError, String(error));
      assert.equal(error.auth, true, error.message);
      assert.match(error.message, message);
      assert.ok(!error.message.includes('wrong-secret') && !error.message.includes(PASS), error.message);
      assert.match(error.message, /socks5:\/\/(\*\*\*:\*\*\*@)?127\.0\.0\.1:\d+/);
    }
  });

  test('a server that is no SOCKS5 proxy, and a proxy that never answers: errors, in time', async () => {
    const notSocks = await checkProxy(parseProxyUrl(`socks5://127.0.0.1:${sitePort}`), 5000).then(() => undefined, (e: unknown) => e);
    assert.ok(notSocks instanceof ProxyError, String(notSocks));
    const held = new Set<net.Socket>();
    const silent = net.createServer((socket) => void held.add(socket)).listen(0, '127.0.0.1'); // accepts, never speaks
    await new Promise((resolve) => silent.once('listening', resolve));
    const started = Date.now();
    const error = await tunnel(parseProxyUrl(`socks5://127.0.0.1:${(silent.address() as AddressInfo).port}`), '127.0.0.1', sitePort, AbortSignal.timeout(500)).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ProxyError && /no answer in time/.test(error.message), String(error));
    assert.ok(Date.now() - started < 3000);
    for (const socket of held) socket.destroy();
    silent.close();
  });
});
