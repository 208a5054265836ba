import type { StdioSample } from '../stdio-sample.ts';
import { compare, type Figure, type Target } from '../report-types.ts';
import { median, round } from '../stats.ts';

// Turns per-run stdio samples into one figure per variant (the median over
// runs), compared against the baseline variant's figure from the same runs.

export type SamplesByVariant = Map<string, StdioSample[]>;

export const BASELINE = 'upstream-cli';

export function figure(samples: StdioSample[], variant: string, metric: string, unit: string, pick: (s: StdioSample) => number, digits = 1): Figure {
  const runs = samples.map((s) => round(pick(s), digits));
  const values = samples.map(pick);
  return { metric, variant, unit, median: round(median(values), digits), runs };
}

/** One figure per variant, baseline first; the others carry their ratio (and target, if any). */
export function compared(
  byVariant: SamplesByVariant,
  metric: string,
  unit: string,
  pick: (s: StdioSample) => number,
  target?: (variant: string) => Target | undefined,
  digits = 1,
): Figure[] {
  const base = byVariant.get(BASELINE);
  const baseFigure = base?.length ? figure(base, BASELINE, metric, unit, pick, digits) : undefined;
  const out: Figure[] = baseFigure ? [baseFigure] : [];
  for (const [variant, samples] of byVariant) {
    if (variant === BASELINE || samples.length === 0) continue;
    const f = compare(figure(samples, variant, metric, unit, pick, digits), baseFigure, target?.(variant));
    out.push(f.ratio === undefined ? f : { ...f, ratio: round(f.ratio, 3) });
  }
  return out;
}
