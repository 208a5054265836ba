import { haltIfStopping, withTimeout } from '../cleanup.ts';
import { openHttpSession, type BenchSession } from '../http-session.ts';
import { startHttpServer, untilPoolFull } from '../http.ts';
import type { Figure, MeasureResult } from '../report-types.ts';
import type { Variant } from '../servers.ts';
import { median, round, since } from '../stats.ts';

// Measure 2c: how long the warm pool takes to be full again after a burst of
// sessions took every browser in it (issue 16). The server runs with
// --http-prewarm POOL; POOL sessions open at once and navigate, as real
// clients would (the pool refills a taken place once its client has its first
// page and its first calls are answered); the time runs from the burst's last
// initialize answer until /readyz reports POOL browsers ready.

const POOL = 4;

export async function poolRefill(ours: Variant, url: string, runs: number, log: (s: string) => void): Promise<MeasureResult> {
  const refillMs: number[] = [];
  const sessionMs: number[] = [];
  const notes: string[] = [];
  const server = await startHttpServer({ ...ours, args: [...ours.args, '--http-prewarm', String(POOL)] });
  const readyz = new URL('/readyz', server.url).href;
  try {
    await untilPoolFull(readyz);
    for (let run = 0; run < runs; run++) {
      log(`2c run ${run + 1}/${runs}: burst of ${POOL} sessions`);
      const sessions: BenchSession[] = [];
      try {
        const t0 = performance.now();
        const opened = await Promise.allSettled(Array.from({ length: POOL }, () => openHttpSession(server.url)));
        for (const o of opened) if (o.status === 'fulfilled') sessions.push(o.value);
        const failed = opened.find((o) => o.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
        const burstEnd = performance.now();
        const working = Promise.all(sessions.map((s) => s.call('browser_navigate', { url }))).then(() => sessionMs.push(since(t0)));
        await untilPoolFull(readyz);
        refillMs.push(since(burstEnd));
        await withTimeout(working, 60_000, 'burst navigates');
      } catch (error) {
        await haltIfStopping();
        notes.push(`failed: run ${run + 1}: ${(error as Error).message}`);
      } finally {
        await Promise.all(sessions.map((s) => s.close()));
      }
      // The next burst starts from a full pool again.
      await untilPoolFull(readyz).catch(() => {});
    }
  } finally {
    await server.close();
  }
  const figures: Figure[] = [];
  if (refillMs.length) figures.push({ metric: `pool refill after a burst of ${POOL}`, variant: `${ours.id} (HTTP, --http-prewarm ${POOL})`, unit: 'ms', median: round(median(refillMs), 1), runs: refillMs.map((v) => round(v, 1)) });
  if (sessionMs.length) figures.push({ metric: `burst of ${POOL}: initialize → all navigated`, variant: `${ours.id} (HTTP, --http-prewarm ${POOL})`, unit: 'ms', median: round(median(sessionMs), 1), runs: sessionMs.map((v) => round(v, 1)) });
  notes.unshift(
    `--http-prewarm ${POOL}; ${POOL} sessions initialize at once (each takes a warm browser) and navigate; the pool refills a taken place once its client has its first page and its first calls are answered (at most 2 s after the take); refill = last initialize answered → /readyz shows ${POOL} ready. No baseline: the upstream has no pool.`,
  );
  return { id: 'pool-refill', title: `2c. warm pool refill after a burst of ${POOL} sessions (HTTP)`, figures, notes };
}
