import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log.ts';
import { hostnameOf, isLoopbackHost } from '../transport/http/guards.ts';
import { rewriteDiscovery, type PublicBase } from './discovery-rewrite.ts';

/** What the listener needs from its session at request time. */
export interface RelayTarget {
  /** The current capability and public base; a new browser gets a new one. */
  base(): PublicBase;
  /** The browser's loopback debugging port, launching the browser if needed. */
  internalPort(): Promise<number>;
  /** Host header values accepted besides loopback names. */
  allowedHosts: string[];
  /** A discovery request or an attached client keeps the session alive. */
  activity: { begin(): () => void };
}

const DISCOVERY = /^\/json(\/(version|list|protocol|new|activate\/[^/]+|close\/[^/]+))?\/?$/;

/** Splits `/<capability>/rest`; undefined unless the capability matches exactly. */
function stripCapability(url: string | undefined, capability: string): string | undefined {
  const prefix = `/${capability}`;
  if (!url?.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return undefined;
  return rest.startsWith('/') ? rest : `/${rest}`;
}

function hostAllowed(req: IncomingMessage, target: RelayTarget): boolean {
  const name = hostnameOf(req.headers.host ?? '').toLowerCase();
  if (!isLoopbackHost(name) && !target.allowedHosts.some((h) => h.toLowerCase() === name)) return false;
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    const originHost = new URL(origin).hostname;
    return isLoopbackHost(originHost) || target.allowedHosts.some((h) => h.toLowerCase() === originHost.toLowerCase());
  } catch {
    return false;
  }
}

// A wrong capability looks exactly like a path that does not exist.
function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('Not found');
}

/**
 * The session's public CDP listener: discovery over HTTP (URLs rewritten to
 * the public base) and DevTools WebSockets relayed byte for byte to the
 * browser's loopback port.
 */
export function createRelayServer(target: RelayTarget, log: Logger): { server: http.Server; dropAll(): void } {
  // Upgraded sockets leave the http server's bookkeeping; track them to end them with the session.
  const relayed = new Set<Duplex>();
  const server = http.createServer((req, res) => {
    const base = target.base();
    const rest = stripCapability(req.url, base.capability);
    if (rest === undefined || !hostAllowed(req, target) || !DISCOVERY.test(rest.split('?')[0]!)) return notFound(res);
    res.on('close', target.activity.begin());
    target
      .internalPort()
      .then((port) => {
        const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: rest, headers: { host: `127.0.0.1:${port}` } }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const body = rewriteDiscovery(Buffer.concat(chunks).toString('utf8'), port, target.base());
            res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
            res.end(body);
          });
        });
        upstream.on('error', () => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end('The browser is not reachable');
        });
        req.pipe(upstream);
      })
      .catch((error: unknown) => {
        log.warn(`CDP discovery could not start the browser: ${(error as Error).message}`);
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('The browser could not be started');
      });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const base = target.base();
    const rest = stripCapability(req.url, base.capability);
    if (rest === undefined || !hostAllowed(req, target) || !rest.startsWith('/devtools/')) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nNot found');
      return;
    }
    target
      .internalPort()
      .then((port) => {
        const browser = net.connect(port, '127.0.0.1');
        const lines = [`GET ${rest} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          const name = req.rawHeaders[i]!.toLowerCase();
          // Chromium refuses foreign Host and Origin values; both were checked above.
          if (name !== 'host' && name !== 'origin') lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        }
        browser.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) browser.write(head);
        browser.pipe(socket).pipe(browser);
        relayed.add(socket);
        const end = target.activity.begin();
        const drop = () => {
          end();
          relayed.delete(socket);
          browser.destroy();
          socket.destroy();
        };
        browser.on('error', drop);
        socket.on('error', drop);
        browser.on('close', drop);
        socket.on('close', drop);
      })
      .catch(() => socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n'));
  });
  const dropAll = () => {
    for (const socket of relayed) socket.destroy();
    relayed.clear();
  };
  return { server, dropAll };
}
