import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../config/config-error.ts';
import type { Config } from '../../config/settings.ts';
import { requestLogger, type Logger } from '../../log.ts';
import type { BridgeSession } from '../../session/bridge-session.ts';
import type { SessionOverrides } from '../../session/session-overrides.ts';
import { SessionRegistry } from '../../session/session-registry.ts';
import type { WarmPool } from '../../session/warm-pool.ts';
import { onShutdown } from '../shutdown.ts';
import { assertSafeExposure } from './exposure.ts';
import { startGatewayAgent } from './gateway-agent.ts';
import { legacySse, SSE_PATH, type AnyTransport } from './legacy-sse.ts';
import { bearerMatches, isLoopbackHost, originProblem, type OriginPolicy } from './guards.ts';
import { mcpEndpoint } from './mcp-endpoint.ts';
import { answerMetrics, METRICS_PATH } from './metrics-endpoint.ts';
import { answerProbe, PROBE_PATHS } from './probes.ts';
import { RPC, sendJson, sendRpcError } from './replies.ts';
import { tlsOptions } from './tls.ts';

export interface HttpServerOptions {
  config: Config;
  log: Logger;
  createSession(overrides: SessionOverrides): BridgeSession;
  pool?: WarmPool<BridgeSession>;
}

export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

/** Streamable HTTP: many clients, one session (and browser) per initialize. */
export async function serveHttp({ config, log, createSession, pool }: HttpServerOptions): Promise<RunningHttpServer> {
  assertSafeExposure(config, log);
  const tls = tlsOptions(config);
  const registry = new SessionRegistry<AnyTransport>({ max: config.httpSessionMax, idleTtlMs: config.httpSessionIdleTtlMs }, log);
  const sse = legacySse({ registry, createSession, bodyLimit: config.httpBodyLimitBytes, log });
  const endpoint = mcpEndpoint({ registry, createSession, bodyLimit: config.httpBodyLimitBytes, log, replicaId: config.httpReplicaId });
  const policy: OriginPolicy = {
    checkHost: isLoopbackHost(config.httpHost),
    allowedHosts: config.httpAllowedHosts ?? [],
    allowedOrigins: config.httpAllowedOrigins ?? [],
  };
  const token = config.httpAuthToken;
  const startedAt = Date.now();

  async function route(req: IncomingMessage, res: ServerResponse, note: (id: string) => void) {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const isProbe = (PROBE_PATHS as readonly string[]).includes(path) || path === METRICS_PATH;
    if (!isProbe && path !== config.httpEndpoint && path !== SSE_PATH) return sendRpcError(res, 404, RPC.serverError, 'Not found.');
    const problem = originProblem(req.headers, policy);
    if (problem) return isProbe ? sendJson(res, 403, { status: 'forbidden', reason: problem }) : sendRpcError(res, 403, RPC.serverError, `Forbidden: ${problem}.`);
    const open = config.httpOpenProbes && (PROBE_PATHS as readonly string[]).includes(path);
    if (token && !open && !bearerMatches(req.headers.authorization, token)) {
      const headers = { 'www-authenticate': 'Bearer' };
      return isProbe ? sendJson(res, 401, { status: 'unauthorized' }, headers) : sendRpcError(res, 401, RPC.serverError, 'Unauthorized: send Authorization: Bearer <token>.', headers);
    }
    if (path === SSE_PATH) return sse(req, res, note);
    if (!isProbe) return endpoint(req, res, note);
    if (req.method !== 'GET') return sendJson(res, 405, { status: 'method_not_allowed' }, { allow: 'GET' });
    if (path === METRICS_PATH) return answerMetrics(res, registry, pool?.info());
    return answerProbe(path, res, registry, startedAt, { debug: config.logLevel === 'debug' || config.logLevel === 'trace', pool: pool?.info(), replicaId: config.httpReplicaId });
  }

  const logRequest = requestLogger(config.logLevel, config.logFormat);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let sessionId: string | undefined;
    res.on('close', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      logRequest({ method: req.method ?? '-', path, status: res.statusCode, durationMs: Math.round(performance.now() - started), session: sessionId });
    });
    route(req, res, (id) => (sessionId = id)).catch((error: unknown) => {
      log.error('request failed:', error);
      sendRpcError(res, 500, RPC.internalError, 'Internal server error.');
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL'
          ? new ConfigError(`Cannot listen on ${config.httpHost}:${config.httpPort} (${error.code}). Fix: choose another --http-port or --http-host.`)
          : error,
      ),
    );
    server.listen(config.httpPort, config.httpHost, resolve);
  });
  registry.startSweeping();
  if (pool) {
    pool.limitTo(() => registry.room);
    registry.onSlotsChanged(() => pool.fill());
    pool.fill();
  }
  const agent = config.httpAgentPort === undefined ? undefined : await startGatewayAgent(config.httpHost, config.httpAgentPort, registry, log);

  const { port } = server.address() as AddressInfo;
  const host = config.httpHost.includes(':') ? `[${config.httpHost}]` : config.httpHost;
  const url = `${config.httpProtocol}://${host}:${port}${config.httpEndpoint}`;
  // In HTTP mode stdout is free: the URL goes there first (scripts read that line), then request lines.
  process.stdout.write(config.logFormat === 'json' ? `${JSON.stringify({ time: new Date().toISOString(), level: 'info', event: 'listening', url })}\n` : `${url}\n`);
  log.info(`listening on ${url} (sessions: max ${config.httpSessionMax}, idle TTL ${config.httpSessionIdleTtlMs} ms${token ? ', bearer auth' : ''})`);

  const close = async () => {
    // Draining first keeps /readyz answering 503 while sessions close.
    await Promise.all([registry.drain(), pool?.close()]);
    await agent?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  onShutdown(close, log);
  return { url, close };
}
