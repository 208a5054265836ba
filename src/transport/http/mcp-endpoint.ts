import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, StreamableHTTPServerTransport } from '../../mcp-sdk.ts';
import type { Logger } from '../../log.ts';
import type { BridgeSession } from '../../session/bridge-session.ts';
import { readSessionOverrides, SessionOverridesError, type SessionOverrides } from '../../session/session-overrides.ts';
import type { SessionRegistry } from '../../session/session-registry.ts';
import { SessionRefused } from '../../session/session-refused.ts';
import { metrics } from '../../metrics/metrics.ts';
import type { AnyTransport } from './legacy-sse.ts';
import { BodyTooLarge, readBody } from './body.ts';
import { RPC, sendRpcError } from './replies.ts';

export interface EndpointOptions {
  registry: SessionRegistry<AnyTransport>;
  createSession(overrides: SessionOverrides): BridgeSession;
  bodyLimit: number;
  log: Logger;
  /** --http-replica-id: session ids carry it, and ids of other replicas are refused. */
  replicaId?: string;
}

// Clients re-initialize on 404 (the MCP spec's answer to an unknown session id).
function sessionNotFound(res: ServerResponse): void {
  sendRpcError(res, 404, RPC.sessionNotFound, 'Session not found (it ended or expired); initialize a new one.');
}

/** The replica a session id names (`<replica>.<random>`), if any. */
export function ownerOf(sessionId: string): string | undefined {
  const dot = sessionId.indexOf('.');
  return dot > 0 ? sessionId.slice(0, dot) : undefined;
}

// Never served by the wrong browser: a gateway that misroutes gets a 404 that says so.
function wrongReplica(res: ServerResponse, owner: string, replica: string): void {
  sendRpcError(res, 404, RPC.sessionNotFound, `Session not found on this replica: its id names replica "${owner}", this is "${replica}" (a gateway must route on the part before the dot; if "${owner}" is gone, initialize a new session).`);
}

type InitializeMessage = { id: string | number; params?: { _meta?: Record<string, unknown> } };

// How long a client refused for capacity should wait before trying again.
const RETRY_AFTER_SECONDS = '30';

/** POST/GET/DELETE on the MCP endpoint; `note` learns the session id for the request log. */
export function mcpEndpoint(options: EndpointOptions) {
  const { registry, bodyLimit, log } = options;

  async function initialize(req: IncomingMessage, res: ServerResponse, message: InitializeMessage, note: (id: string) => void) {
    let overrides: SessionOverrides;
    try {
      overrides = readSessionOverrides(message.params?._meta, req.headers);
    } catch (error) {
      if (!(error instanceof SessionOverridesError)) throw error;
      metrics.sessionRefusals.inc({ reason: 'invalid_settings' });
      return sendRpcError(res, 400, RPC.invalidParams, error.message, {}, message.id);
    }
    if (!registry.reserve()) {
      const why = registry.draining ? 'the server is shutting down' : `the session limit (${registry.limits.max}) is reached`;
      metrics.sessionRefusals.inc({ reason: registry.draining ? 'draining' : 'full' });
      return sendRpcError(res, 503, RPC.serverError, `Cannot start a session: ${why}. Retry later.`, { 'retry-after': RETRY_AFTER_SECONDS }, message.id);
    }
    let settled = false;
    let session: BridgeSession | undefined;
    try {
      session = options.createSession(overrides);
      await session.start();
      const id = session.id;
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        onsessionclosed: () => void registry.close(id, 'deleted by client'),
      });
      await session.server.connect(transport);
      registry.settle(session, transport);
      settled = true;
      metrics.sessionStarts.inc();
      note(id);
      const end = registry.begin(id);
      try {
        await transport.handleRequest(req, res, message);
      } finally {
        end();
      }
      if (!transport.sessionId) await registry.close(id, 'initialize failed');
    } catch (error) {
      if (!settled) {
        registry.settle();
        await session?.close();
      }
      if (error instanceof SessionRefused) metrics.sessionRefusals.inc({ reason: `setup_${error.status}` });
      if (error instanceof SessionRefused) return sendRpcError(res, error.status, RPC.serverError, error.message, error.status === 503 ? { 'retry-after': RETRY_AFTER_SECONDS } : {}, message.id);
      throw error;
    }
  }

  async function forward(id: string, req: IncomingMessage, res: ServerResponse, message: unknown, note: (id: string) => void) {
    const live = registry.get(id);
    // A legacy SSE session is reached through /sse only.
    if (!live || !(live.transport instanceof StreamableHTTPServerTransport)) return sessionNotFound(res);
    note(id);
    // A GET is a long-lived notification stream, not work: it must not keep an idle session alive.
    const end = req.method === 'POST' ? registry.begin(id) : () => {};
    try {
      await live.transport.handleRequest(req, res, message);
    } finally {
      end();
    }
  }

  // Answered here rather than by the SDK transport so that the browser, the
  // CDP port and the slot are all released before the client hears 200.
  async function terminate(id: string, res: ServerResponse, note: (id: string) => void) {
    if (!registry.get(id)) return sessionNotFound(res);
    note(id);
    await registry.close(id, 'deleted by client');
    res.writeHead(200).end();
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, note: (id: string) => void): Promise<void> {
    registry.sweep();
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const owner = sessionId && options.replicaId ? ownerOf(sessionId) : undefined;
    if (owner && owner !== options.replicaId) return wrongReplica(res, owner, options.replicaId!);
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!sessionId) return sendRpcError(res, 400, RPC.invalidRequest, 'Bad Request: Mcp-Session-Id header is required.');
      if (req.method === 'DELETE') return terminate(sessionId, res, note);
      return forward(sessionId, req, res, undefined, note);
    }
    if (req.method !== 'POST') return sendRpcError(res, 405, RPC.serverError, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
    let message: unknown;
    try {
      message = JSON.parse((await readBody(req, bodyLimit)).toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        res.setHeader('connection', 'close');
        return sendRpcError(res, 413, RPC.invalidRequest, `Request body too large (limit ${bodyLimit} bytes).`);
      }
      return sendRpcError(res, 400, RPC.parseError, 'Parse error: the body is not valid JSON.');
    }
    if (sessionId) return forward(sessionId, req, res, message, note);
    if (isInitializeRequest(message)) return initialize(req, res, message as unknown as InitializeMessage, note);
    log.debug('request without session id that is not an initialize');
    return sendRpcError(res, 400, RPC.invalidRequest, 'Bad Request: Mcp-Session-Id header is required (or send an initialize request).');
  };
}
