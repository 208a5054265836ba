import { haltIfStopping } from '../cleanup.ts';
import { stdioSession, type BenchSession } from '../http-session.ts';
import type { MeasureResult } from '../report-types.ts';
import { startStdio, type Variant } from '../servers.ts';
import { since } from '../stats.ts';
import { comparedValues } from './from-samples.ts';

// Measure 2d: the first browser_navigate call as an agent makes it: the
// client lists the tools, then thinks (a model's turn takes seconds) before
// its first browser tool. Measure 2 sends that call at once; this one shows
// what a browser started and a page opened during the handshake saves when
// the call comes later. No target in the issue; reported beside measure 2.

export const THINK_MS = 2000;

/** After initialize: tools/list, the think time, then the timed first navigate call alone, in ms; closes the session. */
export async function navigateAfterThinking(session: BenchSession, url: string): Promise<number> {
  try {
    await session.listTools();
    await new Promise((r) => setTimeout(r, THINK_MS));
    const start = performance.now();
    await session.call('browser_navigate', { url });
    return since(start);
  } finally {
    await session.close();
  }
}

export async function firstNavigatePaused(variants: Variant[], url: string, runs: number, log: (line: string) => void): Promise<MeasureResult> {
  const samples = new Map<string, number[]>(variants.map((v) => [v.id, []]));
  for (let run = 0; run < runs; run++) {
    for (const variant of variants.map((_, i) => variants[(i + run) % variants.length]!)) {
      log(`2d run ${run + 1}/${runs}: ${variant.id}`);
      try {
        samples.get(variant.id)!.push(await navigateAfterThinking(stdioSession(await startStdio(variant)), url));
      } catch (error) {
        await haltIfStopping();
        log(`2d run ${run + 1} of ${variant.id} failed: ${(error as Error).message}`);
      }
    }
  }
  const figures = comparedValues(samples, `first navigate call, ${THINK_MS / 1000} s after tools/list`, 'ms');
  return {
    id: 'first-navigate-paused',
    title: '2d. first browser_navigate after the client\'s think time (stdio)',
    figures,
    notes: [`Spawn, initialize, tools/list, ${THINK_MS} ms pause (a model's turn), then the timed browser_navigate call alone. The upstream launches its browser on that call; ours has it launched and its first page open by then.`],
  };
}
