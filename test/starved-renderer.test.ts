import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { commandLine, descendants } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { normalise } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A machine with more work than cores (32 sessions' browsers on 2 cores, in
// one CI run) starves a renderer that is only loading its page: it answers
// nothing for tens of seconds, as one whose script never yields does. Ours
// closed such pages as stuck ("stopped responding") after ~33 s of a call,
// where the upstream CLI waits and the call ends well. Here busy loops hold
// every core for HOG_MS while each CLI's browser gets the least share the
// scheduler gives (Playwright starts Chromium in a session of its own, so its
// processes share one autogroup: niced to 19, it gets ~1.5 % of the CPU), and
// each page evaluates ~2 s of script: the call can end only once the loops
// stop, past the check during the call (at ~33 s).

const HOG_MS = 52_000;
const WORK = "() => { let x = 0; for (let i = 0; i < 6e8; i++) x = (x + i) % 1000003; return 'computed ' + x; }";

/** Gives the browsers under `serverPid` the scheduler's least share; how many were found. */
function starveBrowsers(serverPid: number): number {
  const browsers = descendants(serverPid).filter((pid) => /chrom/i.test(commandLine(pid)) && !commandLine(pid).includes('--type='));
  for (const pid of browsers) fs.writeFileSync(`/proc/${pid}/autogroup`, '19');
  return browsers.length;
}

/** Busy loops on every core (each in a process group of its own, killed as one), ending by themselves after `ms`. */
function holdCores(ms: number): ChildProcess[] {
  return Array.from({ length: os.availableParallelism() * 2 }, () => spawn('timeout', [String(Math.ceil(ms / 1000)), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore', detached: true }));
}

describe('side by side with the upstream CLI: a page starved of CPU is waited for, not closed', { timeout: 240_000 }, () => {
  const site = useSite();
  const dirs = useTempDir('spm-starved-');
  const servers: Connected[] = [];
  const hogs: ChildProcess[] = [];
  const results: Record<'upstream' | 'ours', { evaluate: string; tabs: string; ms: number }> = {} as never;

  before(async () => {
    const [upstreamDir, oursDir] = ['upstream', 'ours'].map((name) => path.join(dirs.path, name)) as [string, string];
    for (const d of [upstreamDir, oursDir]) fs.mkdirSync(d, { recursive: true });
    const sides = { upstream: { server: await connectUpstream(upstreamDir), dir: upstreamDir }, ours: { server: await connect(testEnv(oursDir)), dir: oursDir } };
    servers.push(sides.upstream.server, sides.ours.server);
    for (const { server } of Object.values(sides)) {
      await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
      assert.ok(starveBrowsers(server.transport.pid) > 0, 'no browser found to starve');
    }
    hogs.push(...holdCores(HOG_MS));
    await Promise.all(
      (['upstream', 'ours'] as const).map(async (name) => {
        const { server, dir } = sides[name];
        const started = Date.now();
        const evaluate = await server.client.callTool({ name: 'browser_evaluate', arguments: { function: WORK } }, undefined, { timeout: 150_000 });
        const ms = Date.now() - started;
        const tabs = await server.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
        const read = (result: Awaited<typeof evaluate>) => `error=${!!result.isError}\n${normalise(textOf(result), site.url, dir)}`;
        results[name] = { evaluate: read(evaluate), tabs: read(tabs), ms };
      }),
    );
  });
  after(async () => {
    for (const hog of hogs) {
      try {
        if (hog.pid) process.kill(-hog.pid, 'SIGKILL');
      } catch {
        // ended by itself
      }
    }
    await closeAll(servers);
  });

  test('the call waited past the check during a call on both', () => {
    // Ended by the busy loops' end, not by a close: past the check at ~33 s.
    for (const [name, { ms }] of Object.entries(results)) assert.ok(ms > 40_000, `${name}: the evaluate ended after ${ms} ms, before the starvation ended`);
  });

  test("ours' evaluate ends as the upstream's, with its page still open", () => {
    assert.match(results.upstream.evaluate, /^error=false\n[^]*computed \d+/, results.upstream.evaluate);
    assert.doesNotMatch(results.ours.evaluate, /stopped responding|was closed/, results.ours.evaluate);
    assert.equal(results.ours.evaluate, results.upstream.evaluate);
    assert.equal(results.ours.tabs, results.upstream.tabs);
  });
});
