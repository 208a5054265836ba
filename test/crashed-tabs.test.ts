import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, type Connected } from './helpers/server.ts';
import { differences, runSteps, type Step } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A tab whose renderer crashed answers nothing until a navigation gives it a
// new one. Ours read that silence as a script that never yields: leaving the
// crashed page waited 2 s for it and said "the page … stopped responding …
// its script was stopped"; a crashed tab in the background was named the same
// way in any call past 3 s. The upstream CLI, run alongside, is the yardstick.

// Chromium's own layout gives out on a DOM this deep (an unautomated headless one prints no DOM for one of
// 3,000; at 5,000 one CI run's renderer stayed busy past the call's time instead of crashing).
const DEEP = `data:text/html,<title>Deep</title><script>let el = document.body || document.documentElement; for (let i = 0; i < 200000; i++) { const d = document.createElement('div'); el.appendChild(d); el = d; }</script>`;

const COVERED = `data:text/html,<title>Covered</title><button>Go</button><div style="position:fixed;inset:0;background:white"></div>`;

const steps = (site: string): Step[] => [
  ['browser_navigate', () => ({ url: `${site}/` })],
  ['browser_tabs', () => ({ action: 'new', url: `${site}/second` })],
  ['browser_tabs', () => ({ action: 'select', index: 0 })],
  ['browser_navigate', () => ({ url: DEEP })],
  // Tab 0 crashed, in the background now; a call long enough for the checks during a call.
  ['browser_tabs', () => ({ action: 'select', index: 1 })],
  ['browser_wait_for', () => ({ time: 4 })],
  // A click that times out (an overlay takes it) has every tab checked for a stuck script.
  ['browser_navigate', () => ({ url: COVERED })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_site, _dir, ref) => ({ element: 'Go button', target: ref('button "Go"') })],
  ['browser_tabs', () => ({ action: 'select', index: 0 })],
  ['browser_navigate', () => ({ url: `${site}/second` })],
  ['browser_navigate', () => ({ url: DEEP })],
  ['browser_navigate', () => ({ url: `${site}/` })],
];
// The calls whose answers ours words its own way: a crash (ours adds a note), selecting a crashed tab;
// and the click's timeout, whose call log counts Playwright's retries.
const CRASHES = new Set([3, 9, 11]);
const CLICK = 8;

describe('side by side with the upstream CLI: a tab whose renderer crashed', { timeout: 180_000 }, () => {
  const site = useSite();
  const dirs = useTempDir('spm-crashed-');
  const servers: Connected[] = [];
  let upstream: string[];
  let ours: string[];
  let all: Step[];
  before(async () => {
    all = steps(site.url);
    const [upstreamDir, oursDir] = ['upstream', 'ours'].map((name) => path.join(dirs.path, name)) as [string, string];
    for (const d of [upstreamDir, oursDir]) fs.mkdirSync(d, { recursive: true });
    const a = await connectUpstream(upstreamDir);
    servers.push(a);
    upstream = await runSteps(a.client, all, site.url, upstreamDir);
    const b = await connect(testEnv(oursDir));
    servers.push(b);
    ours = await runSteps(b.client, all, site.url, oursDir);
  });
  after(() => closeAll(servers));

  test('both crash where expected, and both time out the covered click', () => {
    for (const side of [upstream, ours]) {
      assert.match(side[3]!, /error=true\n[^]*crashed/, side[3]);
      assert.match(side[11]!, /error=true\n[^]*crashed/, side[11]);
      assert.match(side[CLICK]!, /error=true\n[^]*Timeout T exceeded[^]*intercepts pointer events/, side[CLICK]);
    }
  });

  test('no page is said to have stopped responding, and the calls after a crash read as on the upstream', () => {
    for (const [i, text] of ours.entries()) assert.doesNotMatch(text, /stopped responding|script was stopped/, `#${i}: ${text}`);
    const own = (i: number) => CRASHES.has(i) || i === CLICK;
    const compared = all.map((step, i) => (own(i) ? (['skip', step[1]] as Step) : step));
    const strip = (texts: string[]) => texts.map((text, i) => (own(i) ? '' : text));
    assert.deepEqual(differences(compared, strip(upstream), strip(ours)), []);
    assert.match(ours.at(-1)!, /Page Title: Bridge test home/);
  });
});
