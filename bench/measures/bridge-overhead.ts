import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createConnection } from '@playwright/mcp';
import { chromium, type BrowserContext } from 'playwright-core';
import { resolveBrowserBinary } from '../../src/browser/binary.ts';
import { launchPlan } from '../../src/browser/launch-options.ts';
import { loadConfig } from '../../src/config/load.ts';
import { resolveUpstreamConfig } from '../../src/config/upstream.ts';
import { createLogger } from '../../src/log.ts';
import { BridgeSession } from '../../src/session/bridge-session.ts';
import { assertRunning, onCleanup, withTimeout } from '../cleanup.ts';
import { meets, type Figure, type MeasureResult } from '../report-types.ts';
import { median, round, since } from '../stats.ts';

// Measure 3: what our bridge adds to a tool call. Both sides run in this
// process on ONE browser context and ONE page, with the same upstream config:
//   baseline: client → in-memory → upstream createConnection(config, () => context)
//   ours:     client → in-memory → our BridgeSession (its real Server, tool
//             policy and forwarding) → in-memory → upstream, same context
// Calls alternate A/B, B/A (so drift and caches hit both alike) and the figure
// is the median of paired differences. Transport cost (stdio framing) is left
// out on purpose: the upstream CLI pays it too, so it is not bridge overhead.

export interface OverheadOptions {
  chromium: string;
  url: string;
  workDir: string;
  runs: number;
  callsPerTool: number;
}

// Read-only calls, so both sides leave the page exactly as they found it.
const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: 'browser_snapshot', arguments: {} },
  { name: 'browser_evaluate', arguments: { function: '() => document.title' } },
  { name: 'browser_tabs', arguments: { action: 'list' } },
];

async function linked(connectServer: (t: InMemoryTransport) => Promise<void>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await connectServer(serverSide);
  const client = new Client({ name: 'spm-bench', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function timedCall(client: Client, call: (typeof CALLS)[number]): Promise<number> {
  const start = performance.now();
  const result = (await client.callTool(call)) as CallToolResult;
  const ms = since(start);
  if (result.isError) throw new Error(`${call.name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return ms;
}

export async function bridgeOverhead(options: OverheadOptions): Promise<MeasureResult> {
  const env = {
    STEALTH_BINARY_PATH: options.chromium,
    PLAYWRIGHT_MCP_OUTPUT_DIR: path.join(options.workDir, 'out-overhead'),
  };
  const config = loadConfig({}, env);
  const resolved = await resolveUpstreamConfig(config, env);
  // No 500 ms settle wait after evaluate on either side: it is a fixed timer
  // that would only add noise to a sub-millisecond difference.
  const upstreamConfig = { ...resolved, timeouts: { ...resolved.timeouts, settle: 0 } };
  const binary = await resolveBrowserBinary(config, upstreamConfig);
  const plan = launchPlan(config, upstreamConfig, binary);

  // The plan's launch options with the executable set explicitly (the plan may
  // leave it to the binary, which the session's own launcher would resolve).
  assertRunning();
  const browser = await chromium.launch({ ...plan.launch, executablePath: binary.executablePath ?? undefined });
  const forgetBrowser = onCleanup('bridge-overhead browser', () => browser.close());
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const context = await browser.newContext(plan.context);
    const page = await context.newPage();
    await page.goto(options.url);
    const sameContext = async (): Promise<BrowserContext> => context;

    const upstreamServer = await createConnection(
      { ...upstreamConfig, outputDir: path.join(options.workDir, 'out-overhead', 'baseline') },
      sameContext as Parameters<typeof createConnection>[1],
    );
    const baseline = await linked((t) => upstreamServer.connect(t));
    closers.push(() => baseline.close());

    const session = new BridgeSession({ config, upstreamConfig, binary, log: createLogger('error') });
    // Hand our session the shared context instead of letting it launch its own browser.
    (session.browser as { context: () => Promise<BrowserContext> }).context = sameContext;
    closers.push(() => session.close());
    await session.start();
    const ours = await linked((t) => session.server.connect(t));

    // Warm both paths (first call initialises each upstream's backend and tab).
    for (let i = 0; i < 3; i++) for (const call of CALLS) await timedCall(baseline, call), await timedCall(ours, call);

    const perTool = new Map<string, { base: number[]; ours: number[]; diffs: number[][] }>();
    for (const call of CALLS) perTool.set(call.name, { base: [], ours: [], diffs: [] });
    const allDiffsPerRun: number[][] = [];
    for (let run = 0; run < options.runs; run++) {
      const runDiffs: number[] = [];
      const toolDiffs = new Map<string, number[]>(CALLS.map((c) => [c.name, []]));
      for (let i = 0; i < options.callsPerTool; i++) {
        for (const call of CALLS) {
          const baseFirst = (i + run) % 2 === 0;
          let b: number;
          let o: number;
          if (baseFirst) {
            b = await timedCall(baseline, call);
            o = await timedCall(ours, call);
          } else {
            o = await timedCall(ours, call);
            b = await timedCall(baseline, call);
          }
          const entry = perTool.get(call.name)!;
          entry.base.push(b);
          entry.ours.push(o);
          toolDiffs.get(call.name)!.push(o - b);
          runDiffs.push(o - b);
        }
      }
      for (const [name, diffs] of toolDiffs) perTool.get(name)!.diffs.push(diffs);
      allDiffsPerRun.push(runDiffs);
    }

    const target = { max: 1, text: '≤ 1 ms added per call (median)' };
    const added = (metric: string, perRun: number[][], detail?: Record<string, unknown>): Figure => {
      const runs = perRun.map((d) => round(median(d), 3));
      const value = round(median(runs), 3);
      return { metric, variant: 'ours-in-process', unit: 'ms/call', median: value, runs, target, met: meets(target, value), ...(detail ? { detail } : {}) };
    };
    const figures: Figure[] = [added('added per call, all tools', allDiffsPerRun)];
    for (const [name, entry] of perTool) {
      figures.push(
        added(`added per call, ${name}`, entry.diffs, {
          baselineMedianMs: round(median(entry.base), 3),
          oursMedianMs: round(median(entry.ours), 3),
        }),
      );
    }
    return {
      id: 'bridge-overhead',
      title: '3. bridge overhead per tool call (in-process, same browser and page, interleaved)',
      figures,
      notes: [
        `${options.runs} runs × ${options.callsPerTool} rounds × ${CALLS.length} tools (${CALLS.map((c) => c.name).join(', ')}), each round ours and baseline back to back in alternating order; figure = median over runs of the median paired difference (ours − baseline).`,
        'Baseline: the upstream createConnection with a context getter; ours: BridgeSession in front of it. Both on the same context and page, settle timeout 0 on both.',
      ],
    };
  } finally {
    for (const close of closers.reverse()) await withTimeout(close(), 5_000, 'bridge-overhead close').catch(() => {});
    await withTimeout(browser.close(), 10_000, 'bridge-overhead browser close').catch(() => {});
    forgetBrowser();
  }
}
