import path from 'node:path';
import { parseArgs } from 'node:util';

// Bench settings: flags win over BENCH_* environment variables, which win over defaults.

export interface BenchOptions {
  runs: number;
  snapshotCalls: number;
  overheadRounds: number;
  settleMs: number;
  /** Runs per session count in measure 4b (16 sessions always gets one). */
  memoryRuns: number;
  deadlineSeconds: number;
  chromium: string;
  only: Set<string>;
  outDir: string;
}

const PARTS = ['stdio', 'overhead', 'http', 'distribution'] as const;

export const USAGE = `npm run bench -- [options]
  --runs N             runs per figure; every figure is the median (default 5, BENCH_RUNS)
  --snapshots N        browser_snapshot calls per throughput run (default 30, BENCH_SNAPSHOTS)
  --overhead-rounds N  rounds per bridge-overhead run (default 20, BENCH_OVERHEAD_ROUNDS)
  --settle-ms N        pause after the first navigate before reading memory (default 1500)
  --memory-runs N      runs per session count in the HTTP memory measure; 16 sessions always 1 (default 2, BENCH_MEMORY_RUNS)
  --deadline-s N       stop (and clean up) after this many seconds (default 1800, BENCH_DEADLINE_S)
  --chromium PATH      Chromium executable for every variant (default STEALTH_TEST_CHROMIUM or /usr/lib/chromium/chromium)
  --only LIST          comma list of parts: ${PARTS.join(', ')} (default all)
  --out DIR            where the JSON goes (default bench/results)`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export function readOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string' },
      snapshots: { type: 'string' },
      'overhead-rounds': { type: 'string' },
      'settle-ms': { type: 'string' },
      'deadline-s': { type: 'string' },
      'memory-runs': { type: 'string' },
      chromium: { type: 'string' },
      only: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const only = new Set((values.only ?? PARTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean));
  for (const part of only) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only: unknown part ${part}; known: ${PARTS.join(', ')}`);
  return {
    runs: positive('--runs', values.runs ?? env.BENCH_RUNS, 5),
    snapshotCalls: positive('--snapshots', values.snapshots ?? env.BENCH_SNAPSHOTS, 30),
    overheadRounds: positive('--overhead-rounds', values['overhead-rounds'] ?? env.BENCH_OVERHEAD_ROUNDS, 20),
    settleMs: positive('--settle-ms', values['settle-ms'], 1500),
    memoryRuns: positive('--memory-runs', values['memory-runs'] ?? env.BENCH_MEMORY_RUNS, 2),
    deadlineSeconds: positive('--deadline-s', values['deadline-s'] ?? env.BENCH_DEADLINE_S, 1800),
    chromium: values.chromium ?? env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium',
    only,
    outDir: path.resolve(values.out ?? path.join(import.meta.dirname, 'results')),
  };
}
