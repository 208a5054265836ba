import type { ServerResponse } from 'node:http';
import { enableMetrics, metrics } from '../../metrics/metrics.ts';
import type { SessionRegistry } from '../../session/session-registry.ts';
import type { WarmPoolInfo } from '../../session/warm-pool.ts';

export const METRICS_PATH = '/metrics';

/** GET /metrics: Prometheus text format, behind the same bearer token as the probes. */
export async function answerMetrics(res: ServerResponse, registry: SessionRegistry<unknown>, pool: WarmPoolInfo | undefined): Promise<void> {
  metrics.sessionsActive.set(registry.active);
  metrics.sessionsPending.set(registry.pending);
  metrics.sessionsMax.set(registry.limits.max);
  metrics.warmPoolReady.set(pool?.ready ?? 0);
  metrics.warmPoolSize.set(pool?.size ?? 0);
  const promRegistry = await enableMetrics();
  const body = await promRegistry.metrics();
  res.writeHead(200, { 'content-type': promRegistry.contentType }).end(body);
}
