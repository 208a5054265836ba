import fs from 'node:fs';
import client from 'prom-client';

// Prometheus metrics of this process (GET /metrics over HTTP). One registry,
// every name prefixed; the other layers only increment what is defined here.
const PREFIX = 'stealth_playwright_mcp_';
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: PREFIX });

const counter = (name: string, help: string, labelNames: string[] = []) => new client.Counter({ name: PREFIX + name, help, labelNames, registers: [registry] });
const gauge = (name: string, help: string, labelNames: string[] = []) => new client.Gauge({ name: PREFIX + name, help, labelNames, registers: [registry] });

export const metrics = {
  sessionsActive: gauge('sessions_active', 'Sessions open now'),
  sessionsPending: gauge('sessions_pending', 'Sessions starting now'),
  sessionsMax: gauge('sessions_max', 'Session cap (--http-session-max)'),
  warmPoolReady: gauge('warm_pool_ready', 'Warm browsers ready for new sessions'),
  warmPoolSize: gauge('warm_pool_size', 'Warm pool target size (--http-prewarm)'),
  sessionStarts: counter('session_starts_total', 'Sessions started'),
  sessionRefusals: counter('session_refusals_total', 'Initialize requests refused, by reason', ['reason']),
  sessionEnds: counter('session_ends_total', 'Sessions ended, by reason', ['reason']),
  toolCalls: counter('tool_calls_total', 'Tool calls, by tool', ['tool']),
  toolErrors: counter('tool_call_errors_total', 'Tool calls that returned an error, by tool', ['tool']),
  toolDuration: new client.Histogram({
    name: `${PREFIX}tool_call_duration_seconds`,
    help: 'Tool call latency, by tool',
    labelNames: ['tool'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  }),
  browserLaunches: counter('browser_launches_total', 'Browsers launched'),
  browserCrashes: counter('browser_crashes_total', 'Browsers that exited without being asked to'),
  browserRelaunches: counter('browser_relaunches_total', 'Tool calls retried on a fresh browser after a crash'),
  cdpLeases: counter('cdp_leases_total', 'CDP ports leased to sessions'),
  proxyCheckFailures: counter('proxy_check_failures_total', 'Session proxies that failed their check'),
  geoipFailures: counter('geoip_failures_total', 'GeoIP matches that failed'),
  chromiumPss: new client.Gauge({
    name: `${PREFIX}chromium_pss_bytes`,
    help: 'Summed proportional set size of the Chromium processes of this server',
    registers: [registry],
    collect() {
      this.set(chromiumPssBytes());
    },
  }),
};

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
