import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport, type StreamableHTTPServerTransport } from '../../mcp-sdk.ts';
import type { Logger } from '../../log.ts';
import { metrics } from '../../metrics/metrics.ts';
import type { BridgeSession } from '../../session/bridge-session.ts';
import { readSessionOverrides, SessionOverridesError, type SessionOverrides } from '../../session/session-overrides.ts';
import { SessionRefused } from '../../session/session-refused.ts';
import type { SessionRegistry } from '../../session/session-registry.ts';
import { BodyTooLarge, readBody } from './body.ts';
import { RPC, sendRpcError } from './replies.ts';

export const SSE_PATH = '/sse';

export type AnyTransport = StreamableHTTPServerTransport | SSEServerTransport;

interface SseOptions {
  registry: SessionRegistry<AnyTransport>;
  createSession(overrides: SessionOverrides): BridgeSession;
  bodyLimit: number;
  log: Logger;
}

/**
 * The legacy HTTP+SSE transport the upstream serves beside /mcp, for older
 * clients: `GET /sse` opens a session (its stream), `POST /sse?sessionId=…`
 * sends it messages. Same guards (the caller checked Host, Origin and the
 * token), the same session cap, idle expiry and per-session browser as /mcp.
 */
export function legacySse(options: SseOptions) {
  const { registry, log } = options;
  // The SSE transport's own id (in the message URL) → our session id.
  const streams = new Map<string, string>();

  async function open(req: IncomingMessage, res: ServerResponse, note: (id: string) => void): Promise<void> {
    let overrides: SessionOverrides;
    try {
      overrides = readSessionOverrides(undefined, req.headers);
    } catch (error) {
      if (!(error instanceof SessionOverridesError)) throw error;
      return sendRpcError(res, 400, RPC.invalidParams, error.message);
    }
    if (!registry.reserve()) {
      metrics.sessionRefusals.inc({ reason: registry.draining ? 'draining' : 'full' });
      return sendRpcError(res, 503, RPC.serverError, `Cannot start a session: ${registry.draining ? 'the server is shutting down' : `the session limit (${registry.limits.max}) is reached`}. Retry later.`, { 'retry-after': '30' });
    }
    let session: BridgeSession | undefined;
    try {
      session = options.createSession(overrides);
      await session.start();
    } catch (error) {
      registry.settle();
      await session?.close();
      if (error instanceof SessionRefused) return sendRpcError(res, error.status, RPC.serverError, error.message);
      throw error;
    }
    const transport = new SSEServerTransport(SSE_PATH, res);
    const id = session.id;
    streams.set(transport.sessionId, id);
    registry.settle(session, transport);
    metrics.sessionStarts.inc();
    note(id);
    // The stream is the session: when the client goes, so does its browser.
    res.on('close', () => {
      streams.delete(transport.sessionId);
      void registry.close(id, 'sse stream closed');
    });
    await session.server.connect(transport);
    log.debug(`session ${id} on the legacy SSE transport (${transport.sessionId})`);
  }

  async function post(req: IncomingMessage, res: ServerResponse, streamId: string, note: (id: string) => void): Promise<void> {
    const id = streams.get(streamId);
    const live = id ? registry.get(id) : undefined;
    if (!id || !live) return sendRpcError(res, 404, RPC.sessionNotFound, 'Session not found (its stream closed, or it expired); open a new one with GET /sse.');
    note(id);
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, options.bodyLimit)).toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendRpcError(res, 413, RPC.invalidRequest, `Request body too large (limit ${options.bodyLimit} bytes).`);
      return sendRpcError(res, 400, RPC.parseError, 'Parse error: the body is not valid JSON.');
    }
    const end = registry.begin(id);
    try {
      await (live.transport as SSEServerTransport).handlePostMessage(req, res, body);
    } finally {
      end();
    }
  }

  return async function handle(req: IncomingMessage, res: ServerResponse, note: (id: string) => void): Promise<void> {
    registry.sweep();
    const streamId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId');
    if (req.method === 'GET' && !streamId) return open(req, res, note);
    if (req.method === 'POST' && streamId) return post(req, res, streamId, note);
    return sendRpcError(res, 400, RPC.invalidRequest, 'Bad Request: GET /sse opens a session; POST /sse?sessionId=<id> sends it a message.');
  };
}
