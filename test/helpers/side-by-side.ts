import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { textOf } from './server.ts';

// The same MCP call sequence sent to the upstream CLI and to our server: the
// results must read the same once ids, ports, paths and times are normalised.

export type Ref = (label: string) => string;
export type Step = [tool: string, args: (site: string, dir: string, ref: Ref) => Record<string, unknown>];

export function normalise(text: string, site: string, dir: string): string {
  return text
    .replaceAll(site, 'SITE')
    .replaceAll(dir, 'OUT')
    .replaceAll(path.relative(process.cwd(), dir), 'OUT')
    .replace(/\d{4}-\d\d-\d\dT\d\d[-:]\d\d[-:]\d\d([.-]\d+)?Z/g, 'TIME')
    .replace(/trace-\d+/g, 'trace-N')
    .replace(/\d+(\.\d+)?m?s\b/g, 'T')
    .replace(/- Console: \d+ errors, \d+ warnings\n/g, '');
}

/** The ref of the element a snapshot lists with this role and name (`button "Submit"`); `missing:<label>` when it lists none. */
export function refIn(snapshot: string, label: string): string {
  return snapshot.match(new RegExp(`${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\n]*\\[ref=([a-z0-9]+)\\]`))?.[1] ?? `missing:${label}`;
}

/** Runs the steps in order; a step's target refs come from the last snapshot (or navigate) result. */
export async function runSteps(client: Client, steps: Step[], site: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  let snapshot = '';
  const ref: Ref = (label) => refIn(snapshot, label);
  for (const [tool, args] of steps) {
    const result = await client.callTool({ name: tool, arguments: args(site, dir, ref) });
    const text = textOf(result);
    if (tool === 'browser_snapshot') snapshot = text;
    out.push(`${tool} error=${!!result.isError}\n${normalise(text, site, dir)}`);
  }
  return out;
}

/** The steps whose results differ, each with both texts. */
export function differences(steps: Step[], upstream: string[], ours: string[]): string[] {
  return steps.map(([tool], i) => (ours[i] === upstream[i] ? null : `#${i} ${tool}\n--- upstream\n${upstream[i]}\n--- ours\n${ours[i]}`)).filter((d): d is string => d !== null);
}
