// Distribution figures (issue 8): size of each standalone binary, `--help`
// time and spawn-to-initialize time of the binary and of the Node package.
// Every time is the median of --runs runs after one untimed warm-up run.
//
//   node --experimental-strip-types bench/distribution.ts [--runs N] [--node <node executable>]... [--json]
//
// Hook into npm run bench: `results.push(await distribution({ runs, chromium }))`
// (it returns the harness's MeasureResult). It uses dist/bin as built by
// `npm run build:bin`, building it first if it is missing.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure, MeasureResult } from './report-types.ts';
import { median, round, since } from './stats.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN_DIR = path.join(ROOT, 'dist', 'bin');
const NODE_ENTRY = path.join(ROOT, 'dist', 'node', 'cli.mjs');

export interface DistributionOptions {
  runs: number;
  chromium: string;
  /** More Node executables to time the package on (default: only the one running this). */
  nodes?: string[];
}

interface Form {
  variant: string;
  command: string;
  args: string[];
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-distribution', version: '1' } },
})}\n`;

/** ms from spawn() until the process exits (for --help). */
function timeExit(form: Form, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(form.command, [...form.args, ...args], { env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(since(started)) : reject(new Error(`${form.variant} ${args.join(' ')} exited ${code}`))));
  });
}

/** ms from spawn() until the initialize response arrives on stdout; then ends the server by closing stdin. */
function timeInitialize(form: Form, env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(form.command, form.args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let elapsed: number | undefined;
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (elapsed === undefined && out.includes('"id":1')) {
        elapsed = since(started);
        child.stdin.end();
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (elapsed === undefined) reject(new Error(`${form.variant} exited before answering initialize; its stderr ended with:\n${err}`));
      else resolve(elapsed);
    });
    child.stdin.write(INITIALIZE);
  });
}

async function sample(runs: number, once: () => Promise<number>): Promise<number[]> {
  await once(); // warm-up: the first start reads every file from disk
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(round(await once()));
  return values;
}

function figure(metric: string, variant: string, unit: string, runs: number[], detail?: Record<string, unknown>): Figure {
  return { metric, variant, unit, median: round(median(runs)), runs, ...(detail ? { detail } : {}) };
}

function ensureBinaries(): string[] {
  const list = () => (fs.existsSync(BIN_DIR) ? fs.readdirSync(BIN_DIR).filter((f) => f.startsWith('stealth-playwright-mcp-')) : []);
  if (list().length === 0) execFileSync(path.join(ROOT, 'node_modules', '.bin', 'bun'), ['run', 'build.ts', '--bin'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  return list().map((f) => path.join(BIN_DIR, f));
}

export async function distribution(options: DistributionOptions): Promise<MeasureResult> {
  const notes: string[] = [];
  const figures: Figure[] = [];
  const binaries = ensureBinaries();
  for (const file of binaries)
    figures.push(figure('binary size', path.basename(file), 'MB', [round(fs.statSync(file).size / 1e6, 1)]));

  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-bench-dist-'));
  const native = binaries.find((f) => f.endsWith(`-linux-${os.arch()}`));
  const nodeVersion = (node: string) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  const forms: Form[] = [process.execPath, ...(options.nodes ?? [])].map((node) => ({ variant: `node-package (Node ${nodeVersion(node)})`, command: node, args: [NODE_ENTRY] }));
  if (native) {
    // Timed from a private copy, out of the build tree: a rebuild of dist/bin
    // during the run cannot pull it away, and node_modules is out of its reach.
    const copy = path.join(outputDir, path.basename(native));
    fs.copyFileSync(native, copy);
    fs.chmodSync(copy, 0o755);
    forms.unshift({ variant: 'binary', command: copy, args: [] });
  } else notes.push(`no binary for linux-${os.arch()} in dist/bin; only the Node package is timed`);

  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.homedir(),
    STEALTH_BINARY_PATH: options.chromium,
    PLAYWRIGHT_MCP_OUTPUT_DIR: outputDir,
    STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'error',
  };
  try {
    for (const form of forms) {
      figures.push(figure('--help', form.variant, 'ms', await sample(options.runs, () => timeExit(form, ['--help'], env))));
      figures.push(figure('spawn → initialize', form.variant, 'ms', await sample(options.runs, () => timeInitialize(form, env))));
    }
  } finally {
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
  notes.push('spawn → initialize: stdio answers initialize once our settings are validated, before playwright-core loads and the browser executable is checked (those finish before the first tools/list is answered)');
  return { id: 'distribution', title: 'Distribution: binary size, --help and spawn → initialize, binary vs Node package', figures, notes };
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  const argv = process.argv.slice(2);
  const runsIndex = argv.indexOf('--runs');
  const runs = runsIndex === -1 ? 10 : Number(argv[runsIndex + 1]);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write('bench/distribution: --runs needs a positive integer\n');
    process.exit(2);
  }
  const chromium = process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium';
  const nodes = argv.flatMap((arg, i) => (arg === '--node' && argv[i + 1] ? [argv[i + 1]!] : []));
  const result = await distribution({ runs, chromium, nodes });
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    for (const f of result.figures) process.stdout.write(`${f.metric.padEnd(20)} ${f.variant.padEnd(40)} ${String(f.median).padStart(8)} ${f.unit}\n`);
    for (const n of result.notes) process.stdout.write(`note: ${n}\n`);
  }
}
