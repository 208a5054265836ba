import { haltIfStopping } from '../cleanup.ts';
import { stdioSession, type BenchSession } from '../http-session.ts';
import type { MeasureResult } from '../report-types.ts';
import { startStdio, type Variant } from '../servers.ts';
import { median, since } from '../stats.ts';
import { comparedValues } from './from-samples.ts';

// Measure 2d: the first browser_navigate call as an agent makes it: the
// client lists the tools, then thinks (a model's turn takes seconds) before
// its first browser tool. Measure 2 sends that call at once; this one shows
// what a browser started and a page opened during the handshake saves when
// the call comes later. No target in the issue; reported beside measure 2.

export const THINK_MS = 2000;

/** Later turns timed per run: each the think time, then one browser_snapshot. */
const LATER_TURNS = 3;

/** After initialize: tools/list, the think time, then the timed first navigate call alone, in ms; then `after` on the same session; closes the session. */
export async function navigateAfterThinking(session: BenchSession, url: string, after?: (session: BenchSession) => Promise<void>): Promise<number> {
  try {
    await session.listTools();
    await new Promise((r) => setTimeout(r, THINK_MS));
    const start = performance.now();
    await session.call('browser_navigate', { url });
    const ms = since(start);
    await after?.(session);
    return ms;
  } finally {
    await session.close();
  }
}

/** A browser_snapshot sent after the think time, LATER_TURNS times: the first turn's ms, and the median of the others. */
async function snapshotsAfterThinking(session: BenchSession): Promise<{ first: number; later: number }> {
  const times: number[] = [];
  for (let turn = 0; turn < LATER_TURNS; turn++) {
    await new Promise((r) => setTimeout(r, THINK_MS));
    const start = performance.now();
    await session.call('browser_snapshot');
    times.push(since(start));
  }
  return { first: times[0]!, later: median(times.slice(1)) };
}

export async function firstNavigatePaused(variants: Variant[], url: string, runs: number, log: (line: string) => void): Promise<MeasureResult> {
  const samples = new Map<string, number[]>(variants.map((v) => [v.id, []]));
  const firstTurn = new Map<string, number[]>(variants.map((v) => [v.id, []]));
  const later = new Map<string, number[]>(variants.map((v) => [v.id, []]));
  const turns = (id: string) => async (s: BenchSession) => {
    const { first, later: rest } = await snapshotsAfterThinking(s);
    firstTurn.get(id)!.push(first);
    later.get(id)!.push(rest);
  };
  for (let run = 0; run < runs; run++) {
    for (const variant of variants.map((_, i) => variants[(i + run) % variants.length]!)) {
      log(`2d run ${run + 1}/${runs}: ${variant.id}`);
      try {
        samples.get(variant.id)!.push(await navigateAfterThinking(stdioSession(await startStdio(variant)), url, turns(variant.id)));
      } catch (error) {
        await haltIfStopping();
        log(`2d run ${run + 1} of ${variant.id} failed: ${(error as Error).message}`);
      }
    }
  }
  const figures = [
    ...comparedValues(samples, `first navigate call, ${THINK_MS / 1000} s after tools/list`, 'ms'),
    ...comparedValues(firstTurn, `browser_snapshot ${THINK_MS / 1000} s after the navigate's result`, 'ms'),
    ...comparedValues(later, `browser_snapshot ${THINK_MS / 1000} s after a snapshot's result`, 'ms'),
  ];
  return {
    id: 'first-navigate-paused',
    title: '2d. browser calls after the client\'s think time (stdio): the first navigate, then later snapshots',
    figures,
    notes: [`Spawn, initialize, tools/list, ${THINK_MS} ms pause (a model's turn), then the timed browser_navigate call alone. The upstream launches its browser on that call; ours has it launched and its first page open by then.`,
      `Then ${LATER_TURNS} more turns on that session, each a ${THINK_MS} ms pause and one timed browser_snapshot: a call as an agent makes it, after its model's turn. The first of them is reported alone, the others as their median per run. Ours on Node runs a memory-reducing GC once the server has been idle 1 s after the process grew (src/idle-gc.ts): after the first navigate always, after one snapshot seldom; the call after it pays for it (docs/performance.md). The binary runs none.`,
    ],
  };
}
