import { haltIfStopping } from '../cleanup.ts';
import { openHttpSession, stdioSession } from '../http-session.ts';
import { navigateAfterThinking, THINK_MS } from './first-navigate-paused.ts';
import { BASELINE, comparedValues } from './from-samples.ts';
import { startHttpServer, untilPoolFull } from '../http.ts';
import { meets, type Figure, type MeasureResult } from '../report-types.ts';
import { startStdio, type Variant } from '../servers.ts';
import { median, round, since } from '../stats.ts';

// Measure 2b: session start → first browser_navigate done, over HTTP. On our
// server a session starts with the initialize POST (the server already runs:
// that is the point of one server for many agents); the baseline is the
// upstream CLI, whose only way to give a client its own browser is a child
// per client, so its session starts with the spawn. Target (issue 16) ≤ 0.3× with the pool warm.

/** One session on a running server: initialize POST → first navigate done, in ms. */
async function sessionToNavigate(serverUrl: string, url: string): Promise<number> {
  const t0 = performance.now();
  const session = await openHttpSession(serverUrl);
  await session.call('browser_navigate', { url });
  const ms = since(t0);
  await session.close();
  return ms;
}

/** Ours with the warm pool off: every session launches its browser on its first tool. */
async function poolEmpty(ours: Variant, url: string, runs: number, log: (s: string) => void): Promise<number[]> {
  const server = await startHttpServer({ ...ours, args: [...ours.args, '--http-prewarm', '0'] });
  const ms: number[] = [];
  try {
    await sessionToNavigate(server.url, url);
    for (let run = 0; run < runs; run++) {
      log(`2b run ${run + 1}/${runs}: ours, pool off`);
      ms.push(await sessionToNavigate(server.url, url));
    }
  } finally {
    await server.close();
  }
  return ms;
}

// "With the pool warm": each pooled session starts once the pool is full
// again, and a second later, so the refill's launch is not still settling.
const SETTLE_MS = 1000;

async function poolWarm(serverUrl: string): Promise<void> {
  await untilPoolFull(new URL('/readyz', serverUrl).href, 60_000);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
}

export async function firstNavigateHttp(ours: Variant, upstream: Variant, url: string, runs: number, log: (s: string) => void): Promise<MeasureResult> {
  const oursMs: number[] = [];
  const upstreamMs: number[] = [];
  // After a think time: the pooled session against a CLI child, keyed as comparedValues() wants.
  const pooled = `${ours.id} (HTTP, warm pool)`;
  const thinking = new Map<string, number[]>([[BASELINE, []], [pooled, []]]);
  const errors: string[] = [];
  const emptyMs = await poolEmpty(ours, url, runs, log).catch((error: unknown) => (errors.push(`pool off: ${(error as Error).message}`), [] as number[]));
  const server = await startHttpServer(ours);
  try {
    // Untimed: the first session loads the upstream and Playwright modules.
    await sessionToNavigate(server.url, url);
    for (let run = 0; run < runs; run++) {
      // Alternate which side goes first, so neither always follows the other's teardown.
      const sides = run % 2 === 0 ? ['ours', 'upstream'] : ['upstream', 'ours'];
      for (const side of sides) {
        log(`2b run ${run + 1}/${runs}: ${side}`);
        try {
          if (side === 'ours') {
            await poolWarm(server.url);
            oursMs.push(await sessionToNavigate(server.url, url));
            await poolWarm(server.url);
            thinking.get(pooled)!.push(await navigateAfterThinking(await openHttpSession(server.url), url));
          } else {
            const t0 = performance.now();
            const child = await startStdio(upstream);
            try {
              await child.call('browser_navigate', { url });
              upstreamMs.push(since(t0));
            } finally {
              await child.close();
            }
            thinking.get(BASELINE)!.push(await navigateAfterThinking(stdioSession(await startStdio(upstream)), url));
          }
        } catch (error) {
          await haltIfStopping();
          errors.push(`run ${run + 1} ${side}: ${(error as Error).message}`);
        }
      }
    }
  } finally {
    await server.close();
  }
  const base: Figure = { metric: 'session start → first navigate', variant: 'upstream-cli (spawn, stdio)', unit: 'ms', median: round(median(upstreamMs), 1), runs: upstreamMs.map((v) => round(v, 1)) };
  const oursMedian = round(median(oursMs), 1);
  const ratio = round(oursMedian / base.median, 3);
  const target = { max: 0.3, text: '≤ 0.3× upstream CLI with the pool warm' };
  return {
    id: 'first-navigate-http',
    title: '2b. session start → first browser_navigate done (HTTP, browser launch included)',
    figures: [
      base,
      { metric: 'session start → first navigate', variant: `${ours.id} (initialize POST, HTTP, warm pool)`, unit: 'ms', median: oursMedian, runs: oursMs.map((v) => round(v, 1)), baseline: 'upstream-cli', ratio, target, met: meets(target, ratio) },
      ...comparedValues(thinking, `first navigate call, ${THINK_MS / 1000} s after tools/list`, 'ms'),
      ...(emptyMs.length ? [{ metric: 'session start → first navigate', variant: `${ours.id} (HTTP, --http-prewarm 0)`, unit: 'ms', median: round(median(emptyMs), 1), runs: emptyMs.map((v) => round(v, 1)), baseline: 'upstream-cli', ratio: round(median(emptyMs) / base.median, 3) }] : []),
    ],
    notes: [
      'Ours: initialize POST → first browser_navigate result, on a running HTTP server (one untimed warm-up session first). Upstream: spawn of a CLI child → initialize → first navigate (its per-client equivalent).',
      `After a think time: initialize, tools/list, a ${THINK_MS} ms pause (a model's turn), then the first browser_navigate call alone, timed. A pooled session opens its first page when a client takes it, so a navigate sent the moment initialize is answered waits for that page (~0.2 s); after a model's turn it is open.`,
      ...errors.map((e) => `failed: ${e}`),
    ],
  };
}
