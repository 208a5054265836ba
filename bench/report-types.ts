// The shape of what the bench reports (table rows and the JSON file).

export interface Target {
  /** The figure must be at most this (a ratio, or ms for absolute targets). */
  max?: number;
  /** The figure must be at least this (throughput ratios). */
  min?: number;
  text: string;
}

export function meets(target: Target, value: number): boolean {
  return (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
}

export interface Figure {
  metric: string;
  variant: string;
  unit: string;
  /** Median over runs. */
  median: number;
  /** One value per run, in run order. */
  runs: number[];
  /** Variant id of the baseline this figure is compared with, measured in the same run. */
  baseline?: string;
  /** median / baseline median (for `delta` figures: the absolute difference is the figure itself). */
  ratio?: number;
  target?: Target;
  met?: boolean;
  /** Extra detail (e.g. min/max, per-tool splits). */
  detail?: Record<string, unknown>;
}

export interface MeasureResult {
  id: string;
  title: string;
  figures: Figure[];
  notes: string[];
  /** Set when the measure could not run at all; says why. */
  skipped?: string;
}

export function compare(figure: Figure, baseline: Figure | undefined, target?: Target): Figure {
  if (!baseline) return figure;
  const ratio = baseline.median > 0 ? figure.median / baseline.median : Number.NaN;
  return { ...figure, baseline: baseline.variant, ratio, ...(target ? { target, met: meets(target, ratio) } : {}) };
}
