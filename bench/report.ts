import fs from 'node:fs';
import path from 'node:path';
import type { Figure, MeasureResult } from './report-types.ts';

// Prints the results as a table on stdout and writes them as JSON.

function cell(figure: Figure): string[] {
  const ratio = figure.ratio === undefined ? '' : `${figure.ratio.toFixed(3)}× ${figure.baseline}`;
  const target = figure.target ? `${figure.target.text}: ${figure.met ? 'met' : 'MISSED'}` : '';
  return [figure.metric, figure.variant, `${figure.median} ${figure.unit}`, figure.runs.join(' '), ratio, target];
}

export function printTable(results: MeasureResult[], write: (s: string) => void): void {
  const header = ['metric', 'variant', 'median', 'runs', 'ratio vs baseline', 'target'];
  for (const result of results) {
    write(`\n${result.title}\n`);
    if (result.skipped) {
      write(`  skipped: ${result.skipped}\n`);
      continue;
    }
    const rows = [header, ...result.figures.map(cell)];
    const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const row of rows) write(`  ${row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
    for (const note of result.notes) write(`  note: ${note}\n`);
  }
}

export function writeJson(outDir: string, report: unknown, startedAt: Date): string {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${startedAt.toISOString().replaceAll(':', '-').replace(/\.\d+Z$/, 'Z')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
