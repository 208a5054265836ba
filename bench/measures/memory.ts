import type { MeasureResult } from '../report-types.ts';
import { compared, type SamplesByVariant } from './from-samples.ts';

const MB = (kb: number) => kb / 1024;

// Measure 4 (stdio part): summed PSS of the server and all its descendants
// (Chromium and helpers) with one session and a page open. USS is shown as
// well: PSS shrinks when other programs on the machine map the same Chromium
// libraries, USS does not. Target (issue 16): ≤ 1.0× at one session.
// The HTTP part (1, 4, 8, 16 sessions): memory-http.ts.
export function memory(byVariant: SamplesByVariant): MeasureResult {
  const target = (v: string) => (v.startsWith('ours') ? { max: 1, text: '≤ 1.0× at one session' } : undefined);
  return {
    id: 'memory',
    title: '4. memory, one stdio session with a page open (server + all Chromium processes)',
    figures: [
      ...compared(byVariant, 'PSS total', 'MB', (s) => MB(s.memory.total.pssKb), target),
      ...compared(byVariant, 'PSS server process', 'MB', (s) => MB(s.memory.server.pssKb)),
      ...compared(byVariant, 'PSS Chromium processes', 'MB', (s) => MB(s.memory.browser.pssKb)),
      ...compared(byVariant, 'USS total', 'MB', (s) => MB(s.memory.total.ussKb)),
      ...compared(byVariant, 'Chromium process count', 'procs', (s) => s.memory.browser.processes, undefined, 0),
    ],
    notes: [],
  };
}
