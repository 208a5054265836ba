// npm run bench: how this server compares with running the upstream
// @playwright/mcp directly (issue 9). Prints a table, writes
// bench/results/<timestamp>.json. Every figure is the median of --runs runs;
// every comparison is a ratio against a baseline measured in the same run, on
// the same Chromium. Targets are reported, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanupAll, haltIfStopping, installGuards, onCleanup } from './cleanup.ts';
import { bridgeOverhead } from './measures/bridge-overhead.ts';
import { distribution } from './distribution.ts';
import { firstNavigate } from './measures/first-navigate.ts';
import { firstNavigateHttp } from './measures/first-navigate-http.ts';
import { firstNavigatePaused } from './measures/first-navigate-paused.ts';
import { poolRefill } from './measures/pool-refill.ts';
import type { SamplesByVariant } from './measures/from-samples.ts';
import { memory } from './measures/memory.ts';
import { memoryHttp } from './measures/memory-http.ts';
import { spawnInit } from './measures/spawn-init.ts';
import { throughput } from './measures/throughput.ts';
import { throughputHttp } from './measures/throughput-http.ts';
import { readOptions, USAGE } from './options.ts';
import { loadAverage } from './proc.ts';
import { printTable, writeJson } from './report.ts';
import type { MeasureResult } from './report-types.ts';
import { oursBinary, oursNode, upstreamCli, upstreamConfig, type Variant } from './servers.ts';
import { startSite } from './site.ts';
import { stdioSample, warmUp, type StdioSample } from './stdio-sample.ts';

const options = readOptions(process.argv.slice(2), process.env);
if (options === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!fs.existsSync(path.join(import.meta.dirname, '..', 'dist', 'node', 'cli.mjs'))) {
  process.stderr.write('bench: dist/node/cli.mjs is missing; run npm run build:node first\n');
  process.exit(1);
}

const startedAt = new Date();
const removeGuards = installGuards(options.deadlineSeconds * 1000);
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const loadBefore = loadAverage();

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-bench-'));
onCleanup('work dir', () => fs.rmSync(workDir, { recursive: true, force: true }));
const environment = { workDir, chromium: options.chromium };
const site = await startSite();

const results: MeasureResult[] = [];
const notes: string[] = [];
const samples: Record<string, StdioSample[]> = {};
const errors: string[] = [];

if (options.only.has('stdio')) {
  const binary = oursBinary(environment);
  const variants: Variant[] = [upstreamCli(environment), oursNode(environment), ...(typeof binary === 'string' ? [] : [binary])];
  const binaryNotes = typeof binary === 'string' ? [binary] : [];
  for (const variant of variants) samples[variant.id] = [];
  // One untimed start per variant first: the first-ever start reads every
  // file from disk and would count against whichever variant went first.
  for (const variant of variants) await warmUp(variant).catch((error: unknown) => errors.push(`warm-up ${variant.id}: ${(error as Error).message}`));
  for (let run = 0; run < options.runs; run++) {
    // Rotate the order each run so no variant always follows another's teardown.
    const order = variants.map((_, i) => variants[(i + run) % variants.length]!);
    for (const variant of order) {
      log(`run ${run + 1}/${options.runs}: ${variant.id}`);
      try {
        samples[variant.id]!.push(await stdioSample(variant, { url: site.url, snapshotCalls: options.snapshotCalls, settleMs: options.settleMs }));
      } catch (error) {
        await haltIfStopping();
        // One failed run leaves that variant with fewer runs; the JSON says so.
        errors.push(`run ${run + 1}, ${variant.id}: ${(error as Error).message}`);
        log(`run ${run + 1} of ${variant.id} failed: ${(error as Error).message}`);
      }
    }
  }
  const byVariant: SamplesByVariant = new Map(Object.entries(samples));
  const paused = await firstNavigatePaused(variants, site.url, options.runs, log);
  results.push(spawnInit(byVariant, binaryNotes), firstNavigate(byVariant), paused, memory(byVariant), throughput(byVariant, options.snapshotCalls));
}

if (options.only.has('overhead')) {
  log('bridge overhead (in-process)');
  const overhead = await bridgeOverhead({ chromium: options.chromium, url: site.url, workDir, runs: options.runs, callsPerTool: options.overheadRounds }).catch(
    async (error: unknown): Promise<MeasureResult> => (await haltIfStopping(), { id: 'bridge-overhead', title: '3. bridge overhead per tool call', figures: [], notes: [], skipped: `failed: ${(error as Error).message}` }),
  );
  // Keep the numbering in the table: 1, 2, 3, 4, 5.
  results.splice(Math.min(2, results.length), 0, overhead);
}

if (options.only.has('http')) {
  // Our Node package serves HTTP; the compiled binary is the same server and
  // differs only in start-up, which measure 1 covers.
  const ours = oursNode(environment);
  const upstream = upstreamCli(environment);
  const failed = (id: string, title: string) => async (error: unknown): Promise<MeasureResult> => (await haltIfStopping(), { id, title, figures: [], notes: [], skipped: `failed: ${(error as Error).message}` });
  results.push(
    await firstNavigateHttp(ours, upstream, site.url, options.runs, log).catch(failed('first-navigate-http', '2b. session start → first browser_navigate done (HTTP)')),
    await poolRefill(ours, site.url, options.runs, log).catch(failed('pool-refill', '2c. warm pool refill after a burst (HTTP)')),
    await memoryHttp(ours, upstream, { url: site.url, settleMs: options.settleMs, runs: options.memoryRuns, log }).catch(failed('memory-http', '4b. memory at 1, 4, 8, 16 HTTP sessions')),
    await throughputHttp(ours, upstream, site.url, Math.min(options.runs, 3), options.snapshotCalls, log).catch(failed('throughput-http', '5b. throughput across 8 HTTP sessions')),
  );
  // Keep the numbering: each HTTP figure right after its stdio counterpart.
  const order = ['spawn-init', 'first-navigate', 'first-navigate-http', 'pool-refill', 'first-navigate-paused', 'bridge-overhead', 'memory', 'memory-http', 'throughput', 'throughput-http'];
  results.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
}

if (options.only.has('distribution')) {
  log('distribution: binary sizes, --help and spawn-to-initialize of both forms');
  results.push(
    await distribution({ runs: options.runs, chromium: options.chromium }).catch(
      async (error: unknown): Promise<MeasureResult> => (await haltIfStopping(), { id: 'distribution', title: 'distribution: size, --help, spawn → initialize', figures: [], notes: [], skipped: `failed: ${(error as Error).message}` }),
    ),
  );
}

await site.close();
const loadAfter = loadAverage();
notes.push(
  `load average (1/5/15 min) before ${loadBefore.map((l) => l.toFixed(2)).join('/')}, after ${loadAfter.map((l) => l.toFixed(2)).join('/')} on ${os.cpus().length} cores; figures from a busy machine are indicative only, final figures need a quiet run`,
);

const report = {
  startedAt: startedAt.toISOString(),
  durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, memoryMb: Math.round(os.totalmem() / 2 ** 20), kernel: os.release() },
  loadAverage: { before: loadBefore, after: loadAfter },
  runtime: { node: process.versions.node, execPath: process.execPath },
  chromium: options.chromium,
  options: { runs: options.runs, snapshotCalls: options.snapshotCalls, overheadRounds: options.overheadRounds, settleMs: options.settleMs, memoryRuns: options.memoryRuns, parts: [...options.only] },
  upstreamConfig: upstreamConfig(environment),
  notes,
  errors,
  results,
  samples,
};

printTable(results, (s) => process.stdout.write(s));
for (const note of notes) process.stdout.write(`\nnote: ${note}\n`);
for (const error of errors) process.stdout.write(`error: ${error}\n`);
const file = writeJson(options.outDir, report, startedAt);
process.stdout.write(`\nwrote ${path.relative(process.cwd(), file)}\n`);

await cleanupAll();
removeGuards();
// Playwright and the SDK may keep handles open; the bench is done.
process.exit(0);
