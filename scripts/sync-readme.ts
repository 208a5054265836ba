// Rewrites the generated tables in docs/ from the config schema and the upstream flag table.
import fs from 'node:fs';
import { markdownTable, upstreamFlagsTable } from '../src/config/reference.ts';

function fill(file: string, marker: string, table: string): void {
  const [start, end] = [`<!-- ${marker}:start -->`, `<!-- ${marker}:end -->`];
  const text = fs.readFileSync(file, 'utf8');
  const [head, rest] = text.split(start);
  if (rest === undefined || !rest.includes(end)) throw new Error(`${file} needs ${start} and ${end} markers`);
  fs.writeFileSync(file, `${head}${start}\n${table}\n${end}${rest.split(end)[1]}`);
}

fill('docs/configuration.md', 'settings', markdownTable());
fill('docs/playwright-mcp-compat.md', 'upstream-flags', upstreamFlagsTable());
