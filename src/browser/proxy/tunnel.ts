import net from 'node:net';
import tls from 'node:tls';
import { SocksClient } from 'socks';
import { hasCredentials, maskedProxy, type ProxySpec } from './proxy-url.ts';

/** A proxy problem, worded for the operator; never carries the credentials. */
export class ProxyError extends Error {
  override name = 'ProxyError';
  /** The proxy answered but refused our credentials (or asked for some). */
  readonly auth: boolean;
  /** The proxy accepted us but refused the destination: no verdict on the proxy itself. */
  readonly destinationRefused: boolean;

  constructor(message: string, auth = false, destinationRefused = false) {
    super(message);
    this.auth = auth;
    this.destinationRefused = destinationRefused;
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

// SOCKS5 (RFC 1928, 1929) is spoken by `socks`, the client proxy-agent and
// proxy-chain (our relay) already use: one well-tested implementation instead
// of our own byte layouts. Its errors are re-worded here, without credentials.
// The library's error messages (its ERRORS table, not exported from the package root).
const ERRORS = {
  Socks5AuthenticationFailed: 'Socks5 Authentication failed',
  InvalidSocks5InitialHandshakeNoAcceptedAuthType: 'no accepted authentication type',
  InvalidSocks5IntiailHandshakeSocksVersion: 'invalid socks version',
  InvalidSocks5InitialHandshakeResponse: 'Received invalid Socks5 initial handshake response',
  InvalidSocks5FinalHandshakeRejected: 'Socks5 proxy rejected connection',
  SocketClosed: 'Socket closed',
};

function socksError(spec: ProxySpec, host: string, port: number, error: Error, signal: AbortSignal): ProxyError {
  const creds = hasCredentials(spec);
  const proxy = maskedProxy(spec);
  const message = error.message;
  if (signal.aborted) return new ProxyError(`${proxy} SOCKS5: no answer in time`);
  if (message.includes(ERRORS.Socks5AuthenticationFailed)) return new ProxyError(`${proxy} rejected the user name or password`, true);
  if (message.includes(ERRORS.InvalidSocks5InitialHandshakeNoAcceptedAuthType))
    return new ProxyError(creds ? `${proxy} accepts none of our SOCKS5 auth methods` : `${proxy} requires credentials`, !creds);
  if (message.includes(ERRORS.InvalidSocks5IntiailHandshakeSocksVersion) || message.includes(ERRORS.InvalidSocks5InitialHandshakeResponse)) return new ProxyError(`${proxy} does not speak SOCKS5`);
  if (message.includes(ERRORS.InvalidSocks5FinalHandshakeRejected)) return new ProxyError(`${proxy} refused SOCKS5 CONNECT ${host}:${port}`, false, true);
  if (message.includes(ERRORS.SocketClosed)) return new ProxyError(`${proxy} SOCKS5: the proxy closed the connection`);
  return new ProxyError(`${proxy} SOCKS5: ${message}`);
}

/** SOCKS5 CONNECT host:port over `socket` (already connected to the proxy), with username/password auth when we have credentials. */
async function socksConnect(socket: net.Socket, spec: ProxySpec, host: string, port: number, signal: AbortSignal): Promise<void> {
  const creds = hasCredentials(spec);
  if (creds && (Buffer.byteLength(spec.username!) > 255 || Buffer.byteLength(spec.password ?? '') > 255))
    throw new ProxyError(`${maskedProxy(spec)}: SOCKS5 credentials are limited to 255 bytes each`);
  // The library has no AbortSignal: ending the socket ends its handshake.
  const onAbort = () => socket.destroy();
  if (signal.aborted) throw new ProxyError(`${maskedProxy(spec)} SOCKS5: no answer in time`);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await SocksClient.createConnection({
      proxy: { host: spec.host, port: spec.port, type: 5, ...(creds ? { userId: spec.username!, password: spec.password ?? '' } : {}) },
      command: 'connect',
      destination: { host, port },
      existing_socket: socket,
      // The caller's signal is the deadline; this only keeps the library from giving up first.
      timeout: 2 ** 31 - 1,
    });
  } catch (error) {
    throw socksError(spec, host, port, error as Error, signal);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
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
    // SOCKS5 has no request without a destination: the proxy's own address. Past
    // the handshake, a refused CONNECT says nothing against the proxy.
    if (spec.scheme === 'socks5')
      await socksConnect(socket, spec, spec.host, spec.port, signal).catch((error: unknown) => {
        if (error instanceof ProxyError && error.destinationRefused) return;
        throw error;
      });
    else
      await httpConnect(socket, spec, spec.host, 443, signal).catch((error: unknown) => {
        if (!(error instanceof ProxyError && error.auth)) return;
        throw error;
      });
  } finally {
    socket.destroy();
  }
}
