import type { StdioSample } from '../stdio-sample.ts';
import { compare, type Figure, type Target } from '../report-types.ts';
import { median, round } from '../stats.ts';

// Turns per-run stdio samples into one figure per variant (the median over
// runs), compared against the baseline variant's figure from the same runs.

export type SamplesByVariant = Map<string, StdioSample[]>;

export const BASELINE = 'upstream-cli';

/** One figure from one value per run: the median over runs. */
export function figureOf(values: number[], variant: string, metric: string, unit: string, digits = 1): Figure {
  return { metric, variant, unit, median: round(median(values), digits), runs: values.map((v) => round(v, digits)) };
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
  const values = new Map([...byVariant].map(([variant, samples]) => [variant, samples.map(pick)]));
  return comparedValues(values, metric, unit, target, digits);
}

/** As compared(), from one value per run and variant. */
export function comparedValues(
  byVariant: Map<string, number[]>,
  metric: string,
  unit: string,
  target?: (variant: string) => Target | undefined,
  digits = 1,
): Figure[] {
  const base = byVariant.get(BASELINE);
  const baseFigure = base?.length ? figureOf(base, BASELINE, metric, unit, digits) : undefined;
  const out: Figure[] = baseFigure ? [baseFigure] : [];
  for (const [variant, values] of byVariant) {
    if (variant === BASELINE || values.length === 0) continue;
    const f = compare(figureOf(values, variant, metric, unit, digits), baseFigure, target?.(variant));
    out.push(f.ratio === undefined ? f : { ...f, ratio: round(f.ratio, 3) });
  }
  return out;
}
