import { haltIfStopping } from '../cleanup.ts';
import { openHttpSession, type BenchSession } from '../http-session.ts';
import { HTTP_SESSION_COUNTS, openInWaves, startHttpServer, upstreamChildrenPss } from '../http.ts';
import { memoryOf, treeMemory } from '../proc.ts';
import { meets, type Figure, type MeasureResult } from '../report-types.ts';
import type { Variant } from '../servers.ts';
import { median, round } from '../stats.ts';

// Measure 4b: summed PSS of our HTTP server and all its Chromium processes
// with n concurrent sessions, each with a page open, against n upstream CLI
// children (one per client, how the closest existing product works), each
// with the same page. Reported per session; targets (issue 16) ≤ 1.0× at one
// session (the pool's spare browser counts) and ≤ 0.6× at 16.
// Each count gets a fresh server, so no count inherits another's heap. Both
// sides open their sessions 4 at a time (openInWaves). The
// server process's own PSS is reported too: what one more session costs it
// (heap, SDK objects, the upstream's context), apart from its browser.

const MB = (kb: number) => kb / 1024;

async function oursPss(ours: Variant, n: number, url: string, settleMs: number): Promise<{ treeKb: number; serverKb: number }> {
  const server = await startHttpServer(ours);
  const sessions: BenchSession[] = [];
  try {
    await openInWaves(n, () => openHttpSession(server.url), (s) => s.call('browser_navigate', { url }), sessions);
    await new Promise((r) => setTimeout(r, settleMs));
    return { treeKb: treeMemory(server.pid).pssKb, serverKb: memoryOf(server.pid).pssKb };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await server.close();
  }
}

export interface MemoryHttpOptions {
  url: string;
  settleMs: number;
  /** Runs for each count; 16 sessions always gets one run (16 browsers a side). */
  runs: number;
  log(s: string): void;
}

export async function memoryHttp(ours: Variant, upstream: Variant, options: MemoryHttpOptions): Promise<MeasureResult> {
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const n of HTTP_SESSION_COUNTS) {
    const runs = n >= 16 ? 1 : options.runs;
    const oursKb: number[] = [];
    const serverKb: number[] = [];
    const upstreamKb: number[] = [];
    for (let run = 0; run < runs; run++) {
      for (const side of run % 2 === 0 ? ['ours', 'upstream'] : ['upstream', 'ours']) {
        options.log(`4b ${n} sessions, run ${run + 1}/${runs}: ${side}`);
        try {
          if (side === 'ours') {
            const pss = await oursPss(ours, n, options.url, options.settleMs);
            oursKb.push(pss.treeKb);
            serverKb.push(pss.serverKb);
          } else upstreamKb.push(await upstreamChildrenPss(upstream, n, options.url, options.settleMs));
        } catch (error) {
          await haltIfStopping();
          notes.push(`failed: ${n} sessions, run ${run + 1}, ${side}: ${(error as Error).message}`);
        }
      }
    }
    if (oursKb.length === 0 || upstreamKb.length === 0) continue;
    const perSession = (kb: number[]) => kb.map((k) => round(MB(k) / n, 1));
    const base = round(median(perSession(upstreamKb)), 1);
    const mine = round(median(perSession(oursKb)), 1);
    const ratio = round(mine / base, 3);
    const target = n === 1 ? { max: 1, text: '≤ 1.0× at one session' } : n === 16 ? { max: 0.6, text: '≤ 0.6× at 16 sessions' } : undefined;
    figures.push(
      { metric: `PSS per session, ${n} sessions`, variant: 'upstream-cli ×n', unit: 'MB', median: base, runs: perSession(upstreamKb), detail: { totalMb: upstreamKb.map((k) => round(MB(k), 1)) } },
      { metric: `PSS per session, ${n} sessions`, variant: `${ours.id} (HTTP)`, unit: 'MB', median: mine, runs: perSession(oursKb), baseline: 'upstream-cli', ratio, ...(target ? { target, met: meets(target, ratio) } : {}), detail: { totalMb: oursKb.map((k) => round(MB(k), 1)) } },
      { metric: `server process PSS, ${n} sessions`, variant: `${ours.id} (HTTP)`, unit: 'MB', median: round(MB(median(serverKb)), 1), runs: serverKb.map((k) => round(MB(k), 1)) },
    );
  }
  notes.unshift(
    `Ours: one HTTP server, n sessions each navigated to the same 127.0.0.1 page, PSS of the server and all its descendants after ${options.settleMs} ms. Baseline: n upstream CLI children (stdio), each navigated, PSS of all their trees. Runs: ${options.runs} per count, 1 for 16.`,
    'Server process PSS: our server process alone (no browser); its growth from one count to the next is what a session costs the server itself.',
  );
  return { id: 'memory-http', title: `4b. memory at ${HTTP_SESSION_COUNTS.join(', ')} concurrent HTTP sessions vs one upstream CLI child each (PSS per session)`, figures, notes };
}
