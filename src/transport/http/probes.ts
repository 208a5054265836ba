import type { ServerResponse } from 'node:http';
import { PACKAGE_VERSION } from '../../package-info.ts';
import type { SessionRegistry } from '../../session/session-registry.ts';
import { sendJson } from './replies.ts';

export const PROBE_PATHS = ['/healthz', '/readyz'] as const;

/** /healthz: the process serves. /readyz: a new session would be accepted now. */
export function answerProbe(path: string, res: ServerResponse, registry: SessionRegistry<unknown>, startedAt: number): void {
  const uptimeMs = Date.now() - startedAt;
  if (path === '/healthz') return sendJson(res, 200, { status: 'ok', version: PACKAGE_VERSION, uptimeMs });
  registry.sweep();
  const ready = registry.ready;
  sendJson(res, ready ? 200 : 503, {
    status: ready ? 'ready' : registry.draining ? 'shutting_down' : 'full',
    version: PACKAGE_VERSION,
    uptimeMs,
    sessions: { active: registry.active, pending: registry.pending, max: registry.limits.max },
  });
}
