import fs from 'node:fs';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

// Prometheus metrics of this process (GET /metrics over HTTP). One registry,
// every name prefixed; the other layers only increment what is defined here.
// Until enableMetrics() loads prom-client (the HTTP server does, at start),
// every metric is a no-op: over stdio nobody can read them, and prom-client
// with its default collectors (an event-loop monitor, a GC observer) cost
// ~40 ms of every start, before the browser launch, and CPU for nothing.
const PREFIX = 'stealth_playwright_mcp_';

const GAUGES = {
  sessionsActive: ['sessions_active', 'Sessions open now'],
  sessionsPending: ['sessions_pending', 'Sessions starting now'],
  sessionsMax: ['sessions_max', 'Session cap (--http-session-max)'],
  warmPoolReady: ['warm_pool_ready', 'Warm browsers ready for new sessions'],
  warmPoolSize: ['warm_pool_size', 'Warm pool target size (--http-prewarm)'],
} as const;
const COUNTERS = {
  sessionStarts: ['session_starts_total', 'Sessions started', []],
  sessionRefusals: ['session_refusals_total', 'Initialize requests refused, by reason', ['reason']],
  sessionEnds: ['session_ends_total', 'Sessions ended, by reason', ['reason']],
  toolCalls: ['tool_calls_total', 'Tool calls, by tool', ['tool']],
  toolErrors: ['tool_call_errors_total', 'Tool calls that returned an error, by tool', ['tool']],
  browserLaunches: ['browser_launches_total', 'Browsers launched', []],
  browserCrashes: ['browser_crashes_total', 'Browsers that exited without being asked to', []],
  browserRelaunches: ['browser_relaunches_total', 'Tool calls retried on a fresh browser after a crash', []],
  cdpLeases: ['cdp_leases_total', 'CDP ports leased to sessions', []],
  proxyCheckFailures: ['proxy_check_failures_total', 'Session proxies that failed their check', []],
  geoipFailures: ['geoip_failures_total', 'GeoIP matches that failed', []],
} as const satisfies Record<string, readonly [string, string, readonly string[]]>;

type Metrics = { [K in keyof typeof GAUGES]: Gauge } & { [K in keyof typeof COUNTERS]: Counter } & { toolDuration: Histogram; chromiumPss: Gauge };

const noop = { inc() {}, dec() {}, set() {}, observe() {} };
export const metrics = Object.fromEntries([...Object.keys(GAUGES), ...Object.keys(COUNTERS), 'toolDuration', 'chromiumPss'].map((k) => [k, noop])) as unknown as Metrics;

let registry: Registry | undefined;

/** Loads prom-client and makes every metric real; idempotent. The registry is what /metrics serves. */
export async function enableMetrics(): Promise<Registry> {
  if (registry) return registry;
  const client = (await import('prom-client')).default;
  const own = new client.Registry();
  client.collectDefaultMetrics({ register: own, prefix: PREFIX });
  for (const [key, [name, help]] of Object.entries(GAUGES)) (metrics as Record<string, unknown>)[key] = new client.Gauge({ name: PREFIX + name, help, registers: [own] });
  for (const [key, [name, help, labelNames]] of Object.entries(COUNTERS))
    (metrics as Record<string, unknown>)[key] = new client.Counter({ name: PREFIX + name, help, labelNames: [...labelNames], registers: [own] });
  metrics.toolDuration = new client.Histogram({
    name: `${PREFIX}tool_call_duration_seconds`,
    help: 'Tool call latency, by tool',
    labelNames: ['tool'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [own],
  });
  metrics.chromiumPss = new client.Gauge({
    name: `${PREFIX}chromium_pss_bytes`,
    help: 'Summed proportional set size of the Chromium processes of this server',
    registers: [own],
    collect() {
      this.set(chromiumPssBytes());
    },
  });
  registry = own;
  return own;
}

/** PSS of every Chromium descendant of this process, from /proc (0 where /proc is missing). */
function chromiumPssBytes(): number {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  for (const entry of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parent.get(pid), hops = 0; p && hops < 32; p = parent.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of parent.keys()) {
    if (!ours(pid)) continue;
    try {
      if (!/chrom/i.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8'))) continue;
      const pss = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
      if (pss) total += Number(pss[1]) * 1024;
    } catch {
      // gone or not readable
    }
  }
  return total;
}

/** Times one tool call. */
export function observeToolCall(tool: string, started: number, isError: boolean): void {
  metrics.toolCalls.inc({ tool });
  if (isError) metrics.toolErrors.inc({ tool });
  metrics.toolDuration.observe({ tool }, (performance.now() - started) / 1000);
}
