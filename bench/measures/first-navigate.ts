import type { MeasureResult } from '../report-types.ts';
import { compared, type SamplesByVariant } from './from-samples.ts';

// Measure 2: session start → first browser_navigate done, browser launch
// included. Over stdio the session starts with the spawn, so the target
// (≤ 0.6× the upstream CLI, issue 16) is checked on spawn → navigate; the part after
// initialize is shown too, since it isolates the browser launch path.
// The HTTP part (session start = the initialize POST): first-navigate-http.ts.
export function firstNavigate(byVariant: SamplesByVariant): MeasureResult {
  const target = (v: string) => (v.startsWith('ours') ? { max: 0.6, text: '≤ 0.6× upstream CLI' } : undefined);
  return {
    id: 'first-navigate',
    title: '2. session start → first browser_navigate done (stdio, browser launch included)',
    figures: [
      ...compared(byVariant, 'spawn → first navigate', 'ms', (s) => s.spawnToNavigateMs, target),
      ...compared(byVariant, 'initialized → first navigate', 'ms', (s) => s.firstNavigateMs),
    ],
    notes: [],
  };
}
