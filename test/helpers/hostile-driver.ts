import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useSiteSuite, type SiteSuite } from './page-suite.ts';
import { startHostileSite, type HostileSite } from './hostile-site.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './server.ts';
import { connectUpstream } from './upstream-cli.ts';

// Drives one target (upstream CLI or ours) through the hostile corpus and
// records what a user reads off each result.
// Our deadline is 33 s here (the upstream's 30 s, 3 s margin), then a hang check: a 3 s probe, a 2 s close.
export const CALL_BOUND_MS = 40_000;
// The same upstream timeouts on every side: a navigation may take 20 s, a call 30 s (the upstream's own).
export const TIMEOUTS = ['--timeout-navigation', '20000'];

interface Step {
  name: string;
  args: Record<string, unknown>;
}
type Shape = string;

/** The page title a result reports. */
export const titleOf = (text: string): string | undefined => text.match(/^- Page Title: (.*)$/m)?.[1];

/** What a user reads off a result, without ids, ports, paths and timings. */
function shape(name: string, result: Record<string, unknown>): Shape {
  const text = textOf(result);
  const modal = [...text.matchAll(/^- \[("[a-z]+" dialog|File chooser)[^\]]*\]/gm)].map((m) => m[1]).join(',');
  const url = text.match(/^- Page URL: (\S+)/m)?.[1]?.replace(/^https?:\/\/[^/]+/, '') ?? '';
  const title = titleOf(text) ?? '';
  return `${name} error=${!!result.isError} modal=[${modal}] url=${url} title=${title}`;
}

export class Driver {
  readonly shapes: Shape[] = [];
  /** The full text of each result. */
  readonly texts: string[] = [];
  readonly slow: string[] = [];
  /** Milliseconds of each call, for the per-page report. */
  readonly durations: number[] = [];
  /** Shapes before this index belong to the scenario itself; the rest to the recovery check. */
  scenarioEnd = 0;
  readonly client: Client;
  readonly site: HostileSite;
  readonly boundMs: number;
  constructor(client: Client, site: HostileSite, boundMs = CALL_BOUND_MS) {
    this.client = client;
    this.site = site;
    this.boundMs = boundMs;
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const started = Date.now();
    let result: Record<string, unknown>;
    try {
      result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: this.boundMs + 10_000 });
    } catch (error) {
      // Only the upstream has been seen here (a navigate racing an accepted beforeunload).
      this.slow.push(`${name} ${JSON.stringify(args)} got no answer: ${(error as Error).message}`);
      this.shapes.push(`${name} no answer`);
      return '';
    }
    const ms = Date.now() - started;
    this.durations.push(ms);
    if (ms > this.boundMs) this.slow.push(`${name} took ${ms} ms`);
    this.shapes.push(shape(name, result));
    this.texts.push(textOf(result));
    return textOf(result);
  }

  async ref(label: string): Promise<string> {
    const snap = await this.call('browser_snapshot');
    const ref = snap.match(new RegExp(`"${label}"[^\\n]*\\[ref=([a-z0-9]+)\\]`))?.[1];
    assert.ok(ref, `no "${label}" in ${snap}`);
    return ref;
  }

  go = (path: string) => this.call('browser_navigate', { url: `${this.site.url}${path}` });
  click = async (label: string) => this.call('browser_click', { target: await this.ref(label), element: label });
}


/** A session of ours of its own, kept in `servers` and closed when test `t` ends (a page left spinning would take a core from the next test). */
export async function ownSession(t: { after(fn: () => Promise<void>): void }, servers: Connected[], outputDir: string, args: string[]): Promise<Connected> {
  const server = await connect(testEnv(outputDir), args);
  servers.push(server);
  t.after(() => closeAll([server]));
  return server;
}

/** What a describe block of hostile-page tests shares: the hostile site, the sessions and an output dir. */
export type HostileSuite = SiteSuite<HostileSite>;

/** Call in a describe block's body. */
export const useHostileSuite = (prefix: string): HostileSuite => useSiteSuite(prefix, startHostileSite);

/** The upstream CLI and a session of ours with its default settings (plus `oursArgs`), started together and closed with the suite: the side-by-side of one test. */
export async function upstreamAndOurs(suite: HostileSuite, oursArgs: string[] = []): Promise<{ upstream: Connected; ours: Connected }> {
  const [upstream, ours] = await Promise.all([connectUpstream(`${suite.output.path}/upstream`), connect(testEnv(`${suite.output.path}/ours`), oursArgs)]);
  suite.servers.push(upstream, ours);
  return { upstream, ours };
}
