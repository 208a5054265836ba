import net from 'node:net';
import tls from 'node:tls';
import { hasCredentials, maskedProxy, type ProxySpec } from './proxy-url.ts';

/** A proxy problem, worded for the operator; never carries the credentials. */
export class ProxyError extends Error {
  override name = 'ProxyError';
  /** The proxy answered but refused our credentials (or asked for some). */
  readonly auth: boolean;

  constructor(message: string, auth = false) {
    super(message);
    this.auth = auth;
  }
}

/** A fresh connection to the proxy itself (TLS for https proxies); never pooled. */
export function connectToProxy(spec: ProxySpec, signal: AbortSignal): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = spec.scheme === 'https' ? tls.connect({ host: spec.host, port: spec.port, servername: net.isIP(spec.host) ? undefined : spec.host }) : net.connect({ host: spec.host, port: spec.port });
    const ready = spec.scheme === 'https' ? 'secureConnect' : 'connect';
    const onAbort = () => fail(new ProxyError(`${maskedProxy(spec)} did not accept a connection in time`));
    const fail = (error: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error instanceof ProxyError ? error : new ProxyError(`${maskedProxy(spec)} is unreachable: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', fail);
    socket.once(ready, () => {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** Reads exactly what a handshake step needs from the socket. */
function readBytes(socket: net.Socket, signal: AbortSignal, done: (buffer: Buffer) => number | undefined, what: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
    };
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const length = done(buffer);
      if (length === undefined) return;
      cleanup();
      // Whatever came after the handshake belongs to the tunnel.
      if (buffer.length > length) socket.unshift(buffer.subarray(length));
      resolve(buffer.subarray(0, length));
    };
    const onError = (error: Error) => (cleanup(), reject(new ProxyError(`${what}: ${error.message}`)));
    const onClose = () => (cleanup(), reject(new ProxyError(`${what}: the proxy closed the connection`)));
    const onAbort = () => (cleanup(), reject(new ProxyError(`${what}: no answer in time`)));
    if (signal.aborted) return onAbort();
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function basicAuth(spec: ProxySpec): string {
  return `Basic ${Buffer.from(`${spec.username}:${spec.password ?? ''}`).toString('base64')}`;
}

/** HTTP(S) proxy: CONNECT host:port; resolves once the proxy answered 2xx. */
async function httpConnect(socket: net.Socket, spec: ProxySpec, host: string, port: number, signal: AbortSignal): Promise<void> {
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const auth = hasCredentials(spec) ? `Proxy-Authorization: ${basicAuth(spec)}\r\n` : '';
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
  const head = await readBytes(socket, signal, (b) => { const i = b.indexOf('\r\n\r\n'); return i === -1 ? undefined : i + 4; }, `${maskedProxy(spec)} CONNECT`);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1] ?? 0);
  if (status === 407)
    throw new ProxyError(hasCredentials(spec) ? `${maskedProxy(spec)} rejected the user name or password (407)` : `${maskedProxy(spec)} requires credentials (407)`, true);
  if (status < 200 || status > 299) throw new ProxyError(`${maskedProxy(spec)} refused CONNECT ${target} (status ${status || 'unreadable'})`);
}

/** SOCKS5 greeting and, when we have credentials, username/password auth (RFC 1928, 1929). */
async function socksHandshake(socket: net.Socket, spec: ProxySpec, signal: AbortSignal): Promise<void> {
  const creds = hasCredentials(spec);
  socket.write(Buffer.from(creds ? [5, 2, 0, 2] : [5, 1, 0]));
  const [version, method] = await readBytes(socket, signal, (b) => (b.length >= 2 ? 2 : undefined), `${maskedProxy(spec)} SOCKS5 greeting`);
  if (version !== 5) throw new ProxyError(`${maskedProxy(spec)} does not speak SOCKS5`);
  if (method === 0xff) throw new ProxyError(creds ? `${maskedProxy(spec)} accepts none of our SOCKS5 auth methods` : `${maskedProxy(spec)} requires credentials`, !creds);
  if (method === 0) return;
  if (method !== 2 || !creds) throw new ProxyError(`${maskedProxy(spec)} asked for an unsupported SOCKS5 auth method ${method}`);
  const user = Buffer.from(spec.username!);
  const pass = Buffer.from(spec.password ?? '');
  if (user.length > 255 || pass.length > 255) throw new ProxyError(`${maskedProxy(spec)}: SOCKS5 credentials are limited to 255 bytes each`);
  socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
  const [, status] = await readBytes(socket, signal, (b) => (b.length >= 2 ? 2 : undefined), `${maskedProxy(spec)} SOCKS5 auth`);
  if (status !== 0) throw new ProxyError(`${maskedProxy(spec)} rejected the user name or password`, true);
}

async function socksConnect(socket: net.Socket, spec: ProxySpec, host: string, port: number, signal: AbortSignal): Promise<void> {
  await socksHandshake(socket, spec, signal);
  const kind = net.isIP(host);
  const address = kind === 4 ? Buffer.from([1, ...host.split('.').map(Number)])
    : kind === 6 ? Buffer.concat([Buffer.from([4]), ipv6Bytes(host)])
    : Buffer.concat([Buffer.from([3, Buffer.byteLength(host)]), Buffer.from(host)]);
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), address, Buffer.from([port >> 8, port & 0xff])]));
  const reply = await readBytes(socket, signal, (b) => {
    if (b.length < 5) return undefined;
    const length = b[3] === 1 ? 10 : b[3] === 4 ? 22 : 7 + b[4]!;
    return b.length >= length ? length : undefined;
  }, `${maskedProxy(spec)} SOCKS5 CONNECT`);
  if (reply[1] !== 0) throw new ProxyError(`${maskedProxy(spec)} refused SOCKS5 CONNECT ${host}:${port} (reply ${reply[1]})`);
}

function ipv6Bytes(ip: string): Buffer {
  const [head = '', tail = ''] = ip.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  const groups = [...parts(head), ...Array(8 - parts(head).length - parts(tail).length).fill('0'), ...parts(tail)];
  return Buffer.from(groups.flatMap((g) => { const n = parseInt(g, 16); return [n >> 8, n & 0xff]; }));
}

/** A fresh socket to host:port through the proxy (CONNECT or SOCKS5). */
export async function tunnel(spec: ProxySpec, host: string, port: number, signal: AbortSignal): Promise<net.Socket> {
  const socket = await connectToProxy(spec, signal);
  try {
    if (spec.scheme === 'socks5') await socksConnect(socket, spec, host, port, signal);
    else await httpConnect(socket, spec, host, port, signal);
    return socket;
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/**
 * Before a session starts: the proxy answers, and does not refuse our
 * credentials. SOCKS5 checks them in its handshake; an HTTP proxy only on a
 * request, so it gets a CONNECT to its own host (port 443): only a 407 counts
 * as a verdict, any other answer means "not refused".
 */
export async function checkProxy(spec: ProxySpec, timeoutMs: number): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  const socket = await connectToProxy(spec, signal);
  try {
    if (spec.scheme === 'socks5') await socksHandshake(socket, spec, signal);
    else
      await httpConnect(socket, spec, spec.host, 443, signal).catch((error: unknown) => {
        if (!(error instanceof ProxyError && error.auth)) return;
        throw error;
      });
  } finally {
    socket.destroy();
  }
}
