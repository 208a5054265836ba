import type { ServerResponse } from 'node:http';
import type { WarmPoolInfo } from '../../session/warm-pool.ts';
import { PACKAGE_VERSION } from '../../package-info.ts';
import type { SessionRegistry } from '../../session/session-registry.ts';
import { sendJson } from './replies.ts';
import { idleGcRuns } from '../../idle-gc.ts';

export const PROBE_PATHS = ['/healthz', '/readyz'] as const;

/** /healthz: the process serves. /readyz: a new session would be accepted now. */
export interface ProbeFacts {
  debug?: boolean;
  pool?: WarmPoolInfo;
  replicaId?: string;
}

export function answerProbe(path: string, res: ServerResponse, registry: SessionRegistry<unknown>, startedAt: number, facts: ProbeFacts = {}): void {
  const { debug = false, pool, replicaId } = facts;
  const uptimeMs = Date.now() - startedAt;
  if (path === '/healthz') return sendJson(res, 200, { status: 'ok', version: PACKAGE_VERSION, uptimeMs, ...(debug ? { memory: memoryFigures() } : {}) });
  registry.sweep();
  const ready = registry.ready;
  sendJson(res, ready ? 200 : 503, {
    status: ready ? 'ready' : registry.draining ? 'shutting_down' : 'full',
    version: PACKAGE_VERSION,
    uptimeMs,
    ...(replicaId ? { replica: replicaId } : {}),
    sessions: { active: registry.active, pending: registry.pending, max: registry.limits.max },
    ...(pool ? { warmPool: pool } : {}),
  });
}

/**
 * Only at log level debug/trace (the leak tests read it; an operator never
 * needs it in production). With --expose-gc (NODE_OPTIONS), a full GC runs
 * first so heap figures compare across time; without it they are noisier.
 */
function memoryFigures(): { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; afterGc: boolean; idleGcRuns: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  return { rssBytes: usage.rss, heapUsedBytes: usage.heapUsed, heapTotalBytes: usage.heapTotal, afterGc: gc !== undefined, idleGcRuns: idleGcRuns() };
}
