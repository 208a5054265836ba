import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Server } from 'proxy-chain';

// Real proxies on 127.0.0.1 for the browser to go through: an HTTP proxy
// (forward + CONNECT, Basic auth; proxy-chain's server) and a SOCKS5 one
// (RFC 1928 with RFC 1929 username/password), each recording what it carried.

export interface TestProxy {
  url: string;
  port: number;
  /** host:port of every request or tunnel it carried for authenticated clients. */
  seen: string[];
  /** Attempts refused for bad or missing credentials. */
  refused: number;
  close(): Promise<void>;
}

export async function startHttpProxy(username: string, password: string): Promise<TestProxy> {
  const seen: string[] = [];
  const state = { refused: 0 };
  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username: u, password: p, hostname, port }) => {
      if (u !== username || p !== password) {
        state.refused++;
        return { requestAuthentication: true };
      }
      seen.push(`${hostname}:${port}`);
      return {};
    },
  });
  server.on('requestFailed', () => {});
  await server.listen();
  return {
    url: `http://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${server.port}`,
    port: server.port,
    seen,
    get refused() {
      return state.refused;
    },
    close: () => server.close(true),
  };
}

export async function startSocksProxy(username: string, password: string): Promise<TestProxy> {
  const seen: string[] = [];
  const state = { refused: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    void handshake(client).catch(() => client.destroy());
  });
  const read = (socket: net.Socket, n: number) =>
    new Promise<Buffer>((resolve, reject) => {
      const tryRead = () => {
        const chunk = socket.read(n) as Buffer | null;
        if (chunk) return (socket.off('readable', tryRead), socket.off('end', onEnd), resolve(chunk));
      };
      const onEnd = () => reject(new Error('closed'));
      socket.on('readable', tryRead);
      socket.once('end', onEnd);
      tryRead();
    });
  async function handshake(client: net.Socket) {
    const [, nMethods] = await read(client, 2);
    const methods = [...(await read(client, nMethods!))];
    if (!methods.includes(2)) {
      state.refused++;
      client.end(Buffer.from([5, 0xff]));
      return;
    }
    client.write(Buffer.from([5, 2]));
    const [, ulen] = await read(client, 2);
    const user = (await read(client, ulen!)).toString();
    const [plen] = await read(client, 1);
    const pass = plen ? (await read(client, plen)).toString() : '';
    if (user !== username || pass !== password) {
      state.refused++;
      client.end(Buffer.from([1, 1]));
      return;
    }
    client.write(Buffer.from([1, 0]));
    const [, cmd, , atyp] = await read(client, 4);
    const host = atyp === 1 ? [...(await read(client, 4))].join('.') : atyp === 3 ? (await read(client, (await read(client, 1))[0]!)).toString() : '';
    const port = (await read(client, 2)).readUInt16BE(0);
    if (cmd !== 1 || !host) return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
    seen.push(`${host}:${port}`);
    const upstream = net.connect({ host, port }, () => {
      client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => (sockets.delete(upstream), client.destroy()));
    upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `socks5://${encodeURIComponent(username)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    port,
    seen,
    get refused() {
      return state.refused;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface EchoSite {
  url: string;
  /** The IP-echo endpoint: answers `ip` as plain text. */
  ipEchoUrl: string;
  close(): Promise<void>;
}

/**
 * `/headers` shows the request's Accept-Language; `/whoami` what the page
 * sees (Intl timezone, navigator.language(s)); `/ip` is an IP-echo endpoint
 * answering a chosen public address.
 */
export async function startEchoSite(ip: string): Promise<EchoSite> {
  const server = http.createServer((req, res) => {
    if (req.url === '/ip') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${ip}\n`);
    const html = `<!doctype html><title>Echo</title>
<p id="al">accept-language=${String(req.headers['accept-language'] ?? '').replace(/[<>&]/g, '')}</p>
<p id="env"></p>
<script>document.getElementById('env').textContent = 'tz=' + Intl.DateTimeFormat().resolvedOptions().timeZone + ' lang=' + navigator.language + ' langs=' + navigator.languages.join('|')</script>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ipEchoUrl: `http://127.0.0.1:${port}/ip`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
