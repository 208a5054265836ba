import { haltIfStopping } from '../cleanup.ts';
import { openHttpSession, stdioSession, type BenchSession } from '../http-session.ts';
import { HTTP_THROUGHPUT_SESSIONS, startHttpServer } from '../http.ts';
import { meets, type Figure, type MeasureResult } from '../report-types.ts';
import { startStdio, type Variant } from '../servers.ts';
import { cpuByKind, untilQuiet } from '../proc.ts';
import { median, percentile, round, since } from '../stats.ts';

// Measure 5b: 8 sessions each calling browser_snapshot in a loop at the same
// time: calls per second across all of them, and per-call latency p50/p95.
// Ours: 8 HTTP sessions on one server; baseline: 8 upstream CLI children.

interface Burst {
  callsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  /** CPU ms per call, by kind of process: where the time goes on each side. */
  cpuMsPerCall: Record<string, number>;
}

async function burst(sessions: BenchSession[], url: string, calls: number, roots: number[]): Promise<Burst> {
  await Promise.all(sessions.map((s) => s.call('browser_navigate', { url })));
  // One untimed snapshot each: the first one builds the page's aria tree caches.
  await Promise.all(sessions.map((s) => s.call('browser_snapshot')));
  const latencies: number[] = [];
  const cpuBefore = cpuByKind(roots);
  const clientsBefore = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (s) => {
      for (let i = 0; i < calls; i++) {
        const start = performance.now();
        await s.call('browser_snapshot');
        latencies.push(since(start));
      }
    }),
  );
  const seconds = since(t0) / 1000;
  const clients = process.cpuUsage(clientsBefore);
  // The bench's own clients share the cores: an HTTP client parses SSE, a stdio one lines.
  const cpuAfter = { ...cpuByKind(roots), 'bench clients': (clients.user + clients.system) / 1000 };
  const cpuMsPerCall = Object.fromEntries(Object.entries(cpuAfter).map(([kind, ms]) => [kind, round((ms - (cpuBefore[kind] ?? 0)) / latencies.length, 2)]));
  return { callsPerSecond: latencies.length / seconds, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), cpuMsPerCall };
}

async function oursBurst(ours: Variant, url: string, calls: number): Promise<Burst> {
  const server = await startHttpServer(ours);
  const sessions: BenchSession[] = [];
  try {
    for (let i = 0; i < HTTP_THROUGHPUT_SESSIONS; i++) sessions.push(await openHttpSession(server.url));
    return await burst(sessions, url, calls, [server.pid]);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await server.close();
  }
}

async function upstreamBurst(upstream: Variant, url: string, calls: number): Promise<Burst> {
  const sessions: BenchSession[] = [];
  const pids: number[] = [];
  try {
    for (let i = 0; i < HTTP_THROUGHPUT_SESSIONS; i++) {
      const server = await startStdio(upstream);
      pids.push(server.pid);
      sessions.push(stdioSession(server));
    }
    return await burst(sessions, url, calls, pids);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

export async function throughputHttp(ours: Variant, upstream: Variant, url: string, runs: number, calls: number, log: (s: string) => void): Promise<MeasureResult> {
  const results: Record<'ours' | 'upstream', Burst[]> = { ours: [], upstream: [] };
  const notes: string[] = [];
  for (let run = 0; run < runs; run++) {
    for (const side of run % 2 === 0 ? (['ours', 'upstream'] as const) : (['upstream', 'ours'] as const)) {
      const waited = await untilQuiet();
      log(`5b run ${run + 1}/${runs}: ${side} (after ${waited} ms for the cores to go quiet)`);
      try {
        results[side].push(side === 'ours' ? await oursBurst(ours, url, calls) : await upstreamBurst(upstream, url, calls));
      } catch (error) {
        await haltIfStopping();
        notes.push(`failed: run ${run + 1}, ${side}: ${(error as Error).message}`);
      }
    }
  }
  const figures: Figure[] = [];
  // Where a call's CPU goes on each side (issue 16 asks why, not only how fast):
  // the server process(es) are ours or the upstream's, the rest is Chromium's.
  const kinds = [...new Set([...results.ours, ...results.upstream].flatMap((b) => Object.keys(b.cpuMsPerCall)))].sort();
  const metrics: [string, string, (b: Burst) => number][] = [
    ['snapshots per second, all sessions', 'calls/s', (b) => b.callsPerSecond],
    ['snapshot latency p50', 'ms', (b) => b.p50Ms],
    ['snapshot latency p95', 'ms', (b) => b.p95Ms],
    ...kinds.map((kind): [string, string, (b: Burst) => number] => [`CPU per snapshot call, ${kind}`, 'ms', (b) => b.cpuMsPerCall[kind] ?? 0]),
  ];
  for (const [metric, unit, pick] of metrics) {
    const base = results.upstream.map(pick);
    const mine = results.ours.map(pick);
    if (base.length) figures.push({ metric, variant: `upstream-cli ×${HTTP_THROUGHPUT_SESSIONS}`, unit, median: round(median(base), 1), runs: base.map((v) => round(v, 1)) });
    const ratio = base.length ? round(median(mine) / median(base), 3) : undefined;
    const target = unit === 'calls/s' ? { min: 1.2, text: '≥ 1.2× upstream CLI children' } : undefined;
    if (mine.length)
      figures.push({
        metric,
        variant: `${ours.id} (HTTP)`,
        unit,
        median: round(median(mine), 1),
        runs: mine.map((v) => round(v, 1)),
        ...(ratio !== undefined ? { baseline: 'upstream-cli', ratio, ...(target ? { target, met: meets(target, ratio) } : {}) } : {}),
      });
  }
  notes.unshift(`${HTTP_THROUGHPUT_SESSIONS} sessions at once, each ${calls} sequential browser_snapshot calls after a navigate and one untimed snapshot; each side's server (or children) started once the cores were 80 % idle over a second (at most 30 s: the 16-session memory step before it leaves browsers shutting down), and its timed calls follow that setup with no wait (so ours' idle GC does not run before them, and the browsers just launched on either side may still be finishing their start); calls/s = all calls / wall time; CPU per call = CPU time (user + system, from /proc) of each kind of process during the timed calls / calls: the server process (ours, or the ${HTTP_THROUGHPUT_SESSIONS} upstream CLI children), Chromium's browser process, its renderers, its other helpers. Target (issue 16): ≥ 1.2× the throughput of one upstream CLI child per client.`);
  return { id: 'throughput-http', title: `5b. throughput across ${HTTP_THROUGHPUT_SESSIONS} concurrent HTTP sessions (browser_snapshot loops)`, figures, notes };
}
