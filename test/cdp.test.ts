import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { isAlive, waitFor } from './helpers/processes.ts';
import { runCli, testEnv, textOf } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

const cdpMeta = (enabled: boolean) => ({ headers: { 'x-stealth-session-cdp-enabled': String(enabled) } });

async function cdpInfo(client: Awaited<ReturnType<typeof httpClient>>['client']) {
  const info = (await client.callTool({ name: 'stealth_bridge_info', arguments: {} })).structuredContent as any;
  return info.cdp;
}

/** Three free consecutive ports for the lease range. */
async function freeRange(count: number): Promise<[number, number]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20000 + Math.floor(Math.random() * 30000);
    const servers: net.Server[] = [];
    let ok = true;
    for (let p = first; p < first + count && ok; p++) {
      const s = net.createServer();
      ok = await new Promise<boolean>((resolve) => {
        s.once('error', () => resolve(false));
        s.listen(p, '127.0.0.1', () => resolve(true));
      });
      servers.push(s);
    }
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    if (ok) return [first, first + count - 1];
  }
  throw new Error('no free port range');
}

describe('managed CDP: a DevTools URL per session', () => {
  const site = useSite();
  const output = useTempDir('spm-cdp-');
  let server: HttpServer;
  let range: [number, number];

  before(async () => {
    range = await freeRange(2);
    server = await startHttpServer(testEnv(output.path), ['--cdp-port-range', `${range[0]}-${range[1]}`]);
  });
  after(async () => {
    await server?.stop();
  });

  test('a CDP client sees and evaluates in its session\'s page, and nothing of another session', async () => {
    const a = await httpClient(server.url, cdpMeta(true));
    const b = await httpClient(server.url);
    await a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    await b.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
    const cdp = await cdpInfo(a.client);
    assert.equal(cdp.enabled, true);
    assert.ok(cdp.port >= range[0] && cdp.port <= range[1]);
    assert.match(cdp.url, new RegExp(`^http://127\\.0\\.0\\.1:${cdp.port}/[A-Za-z0-9_-]{20,}$`));
    assert.deepEqual(await cdpInfo(b.client), { enabled: false });

    const attached = await chromium.connectOverCDP(cdp.url);
    try {
      const pages = attached.contexts().flatMap((c) => c.pages());
      const mine = pages.find((p) => p.url() === `${site.url}/`);
      assert.ok(mine, `pages seen: ${pages.map((p) => p.url())}`);
      assert.equal(await mine!.evaluate(() => document.title), 'Bridge test home');
      assert.ok(!pages.some((p) => p.url().includes('/second')), 'the other session is invisible');
    } finally {
      await attached.close();
    }
    // The MCP session still works after the CDP client detached.
    assert.match(textOf(await a.client.callTool({ name: 'browser_snapshot', arguments: {} })), /Click me/);

    // Discovery never shows the browser's internal port; a wrong or missing capability gets 404.
    const version = await (await fetch(`${cdp.url}/json/version`)).json();
    assert.match(version.webSocketDebuggerUrl, new RegExp(`^ws://127\\.0\\.0\\.1:${cdp.port}/${cdp.url.split('/').pop()}/devtools/browser/`));
    for (const wrong of [`http://127.0.0.1:${cdp.port}/json/version`, `http://127.0.0.1:${cdp.port}/not-the-capability/json/version`, `${cdp.url}x/json/version`]) {
      const res = await fetch(wrong);
      assert.equal(res.status, 404, wrong);
      assert.equal(await res.text(), 'Not found');
    }

    // browser_close: the old URL stops working, a new one is published and works.
    await a.client.callTool({ name: 'browser_close', arguments: {} });
    assert.equal((await fetch(`${cdp.url}/json/version`)).status, 404);
    const next = await cdpInfo(a.client);
    assert.notEqual(next.url, cdp.url);
    assert.equal(next.port, cdp.port, 'the session keeps its port');
    assert.equal((await fetch(`${next.url}/json/version`)).status, 200);

    assert.ok(!server.stderr().includes(cdp.url.split('/').pop()!), 'no capability in the log');
    assert.ok(!server.stderr().includes(next.url.split('/').pop()!), 'no capability in the log');
    for (const c of [a, b]) {
      await c.transport.terminateSession();
      await c.client.close();
    }
  });

  test('pool of 2: a third CDP session is refused, a non-CDP session still works, DELETE frees a port', async () => {
    const one = await httpClient(server.url, cdpMeta(true));
    const two = await httpClient(server.url, cdpMeta(true));
    await assert.rejects(httpClient(server.url, cdpMeta(true)), /No CDP port is free/);
    const plain = await httpClient(server.url);
    assert.ok(!(await plain.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } })).isError);
    await one.transport.terminateSession();
    await one.client.close();
    const three = await httpClient(server.url, cdpMeta(true));
    assert.equal((await cdpInfo(three.client)).enabled, true);
    for (const c of [two, three, plain]) {
      await c.transport.terminateSession();
      await c.client.close();
    }
  });
});

describe('managed CDP: expiry, advertised URLs, validation', () => {
  const site = useSite();
  const output = useTempDir('spm-cdp2-');

  test('idle expiry releases the lease and kills the browser', async () => {
    const range = await freeRange(1);
    const server = await startHttpServer(testEnv(output.path), ['--cdp-enabled', '--cdp-port-range', `${range[0]}-${range[1]}`, '--http-session-idle-ttl-ms', '1500']);
    try {
      const first = await httpClient(server.url);
      const cdp = await cdpInfo(first.client);
      assert.equal(cdp.enabled, true, 'the process default enables CDP');
      const discovery = await fetch(`${cdp.url}/json/version`);
      assert.equal(discovery.status, 200, `discovery launches the browser; server log:\n${server.stderr()}`);
      const browsers = server.browsers();
      assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 10_000));
      assert.ok(await waitFor(() => server.stderr().includes('closed (idle)'), 10_000), 'the session is reported closed');
      const second = await httpClient(server.url);
      assert.equal((await cdpInfo(second.client)).port, range[0], 'the only port is free again');
      await second.transport.terminateSession();
    } finally {
      await server.stop();
    }
  });

  test('an attached CDP client keeps its session from idling out; detaching lets it expire', async () => {
    const range = await freeRange(1);
    const server = await startHttpServer(testEnv(output.path), ['--cdp-enabled', '--cdp-port-range', `${range[0]}-${range[1]}`, '--http-session-idle-ttl-ms', '1500']);
    try {
      const c = await httpClient(server.url);
      const cdp = await cdpInfo(c.client);
      const attached = await chromium.connectOverCDP(cdp.url);
      const page = attached.contexts()[0]!.pages()[0] ?? (await attached.contexts()[0]!.newPage());
      await new Promise((r) => setTimeout(r, 4000));
      assert.equal(await page.evaluate(() => 1 + 1), 2, 'the browser is still there');
      assert.ok(!server.stderr().includes('closed (idle)'), 'no expiry while attached');
      await attached.close();
      assert.ok(await waitFor(() => server.stderr().includes('closed (idle)'), 10_000), 'expires once detached');
    } finally {
      await server.stop();
    }
  });

  test('advertised host and scheme: URLs point at a TLS terminator on 127.0.0.2 and work through it', async () => {
    const key = path.join(output.path, 'k.pem');
    const cert = path.join(output.path, 'c.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.2', '-addext', 'subjectAltName=IP:127.0.0.2'], { stdio: 'ignore' });
    const range = await freeRange(1);
    const port = range[0];
    const terminator = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (socket) => {
      const inner = net.connect(port, '127.0.0.1');
      socket.pipe(inner).pipe(socket);
      socket.on('error', () => inner.destroy());
      inner.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => terminator.listen(port, '127.0.0.2', resolve));
    const server = await startHttpServer(testEnv(output.path), ['--cdp-enabled', '--cdp-port-range', `${port}-${port}`, '--cdp-advertised-host', '127.0.0.2', '--cdp-advertised-scheme', 'https']);
    try {
      const c = await httpClient(server.url);
      await c.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
      const cdp = await cdpInfo(c.client);
      assert.match(cdp.url, new RegExp(`^https://127\\.0\\.0\\.2:${port}/`));
      const version = await new Promise<any>((resolve, reject) => {
        https.get(`${cdp.url}/json/version`, { ca: fs.readFileSync(cert) }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve(JSON.parse(body)));
        }).on('error', reject);
      });
      assert.match(version.webSocketDebuggerUrl, new RegExp(`^wss://127\\.0\\.0\\.2:${port}/`));
      // The terminator's certificate is self-signed; trust it for this client only.
      process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
      try {
        const attached = await chromium.connectOverCDP(cdp.url);
        const urls = attached.contexts().flatMap((ctx) => ctx.pages()).map((p) => p.url());
        assert.ok(urls.includes(`${site.url}/second`), urls.join(', '));
        await attached.close();
      } finally {
        delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      }
      await c.transport.terminateSession();
    } finally {
      await server.stop();
      await new Promise((r) => terminator.close(r));
    }
  });

  test('remote binds and missing ranges are refused at startup with the reason', async () => {
    const cases: [string[], RegExp][] = [
      [['--cdp-host', '0.0.0.0', '--cdp-port-range', '9300-9301'], /--cdp-allow-remote/],
      [['--cdp-host', '0.0.0.0', '--cdp-allow-remote', '--cdp-port-range', '9300-9301'], /--cdp-advertised-host/],
      [['--cdp-enabled'], /--cdp-port-range/],
      [['--cdp-port-range', '9400-9300'], /--cdp-port-range.*first-last/],
    ];
    for (const [args, expected] of cases) {
      const result = await runCli(['--transport', 'streamable-http', '--http-port', '0', ...args], testEnv(output.path));
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, expected);
    }
  });
});
