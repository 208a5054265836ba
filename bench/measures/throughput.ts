import type { MeasureResult } from '../report-types.ts';
import { compared, type SamplesByVariant } from './from-samples.ts';

// Measure 5 (stdio part): sequential browser_snapshot calls on one session:
// calls per second and per-call latency (p50, p95 within each run; the
// figure is the median over runs).
// The 8-session HTTP part: throughput-http.ts.
export function throughput(byVariant: SamplesByVariant, calls: number): MeasureResult {
  return {
    id: 'throughput',
    title: `5. throughput: ${calls} sequential browser_snapshot calls, one stdio session`,
    figures: [
      ...compared(byVariant, 'snapshots per second', 'calls/s', (s) => s.snapshots.callsPerSecond),
      ...compared(byVariant, 'snapshot latency p50', 'ms', (s) => s.snapshots.p50Ms, undefined, 2),
      ...compared(byVariant, 'snapshot latency p95', 'ms', (s) => s.snapshots.p95Ms, undefined, 2),
    ],
    notes: [],
  };
}
