import { Server } from 'proxy-chain';
import { inlineProxyUrl, type ProxySpec } from './proxy-url.ts';

export interface Relay {
  /** http://127.0.0.1:<port>, no credentials: what Chromium is pointed at. */
  url: string;
  close(): Promise<void>;
}

/**
 * A local HTTP proxy that forwards every request and CONNECT to the upstream
 * SOCKS5 proxy with its credentials (Chromium speaks SOCKS5 but not its
 * username/password auth). Bound to 127.0.0.1 only; one per session, closed
 * with it. It asks no credentials of its own: Playwright's 407 path is what
 * breaks CONNECT to some sites (research §1.7), and only local processes reach it.
 */
export async function startRelay(spec: ProxySpec): Promise<Relay> {
  const upstreamProxyUrl = inlineProxyUrl(spec);
  const server = new Server({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: () => ({ requestAuthentication: false, upstreamProxyUrl }),
  });
  // Failures reach Chromium as a proxy error; the relay itself must not log
  // (its messages may carry the upstream URL).
  server.on('requestFailed', () => {});
  await server.listen();
  return {
    url: `http://127.0.0.1:${server.port}`,
    close: () => server.close(true),
  };
}
