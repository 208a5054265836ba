import type { MeasureResult } from '../report-types.ts';
import { compared, type SamplesByVariant } from './from-samples.ts';

// Measure 1: spawn → initialize response over stdio. Issue 9's target is for
// the compiled binary (≤ 0.3× the upstream CLI); the Node package is shown
// for comparison, without a target.
export function spawnInit(byVariant: SamplesByVariant, notes: string[]): MeasureResult {
  return {
    id: 'spawn-init',
    title: '1. spawn → initialize response (stdio)',
    figures: compared(byVariant, 'spawn → initialize', 'ms', (s) => s.initMs, (v) => (v === 'ours-bin' ? { max: 0.3, text: '≤ 0.3× upstream CLI' } : undefined)),
    notes,
  };
}
