import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, TIMEOUTS, useHostileSuite } from './helpers/hostile-driver.ts';
import { connect, testEnv } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Navigating away from a page whose script never yields: a loop started after
// its load, or a pagehide or beforeunload handler that never returns. The
// next document goes to the same renderer, which must finish the old one's
// script first. The upstream's navigate times out there (60 s by default, 20 s
// here) and every later call does too (measured 2026-11-29, its snapshot 30 s).
// Ours stops the old document's script, before the navigation is sent or
// while it waits (src/browser/stuck-scripts.ts, leaving-tab.ts): the navigate
// arrives, and says why it took a while.

// A bound a few times what ours takes here (2-8 s), well under the navigation timeout.
const BOUND_MS = 15_000;
const LEFT_NOTE = /Note: the page \S+ stopped responding \(a script that never yields, or one that runs while the page unloads\), which held up leaving it; its script was stopped so the navigation could go on\./;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const PAGES: [name: string, enter: (d: Driver) => Promise<unknown>][] = [
  // Its loop starts 1.5 s after the script runs: after the navigate's own snapshot.
  ['a loop started after the page loaded', async (d) => (await d.go('/spin-tab'), settle(2500))],
  ['an endless pagehide handler', (d) => d.go('/unload-spin')],
  ['an endless beforeunload handler', async (d) => (await d.go('/beforeunload-spin'), d.click('Touch'))],
];

describe('leaving a page whose script never yields', () => {
  const suite = useHostileSuite('spm-leaving-');

  test('the upstream CLI: the navigate away times out, and the tab stays stuck (the yardstick)', { timeout: 120_000 }, async (t) => {
    const upstream = await connectUpstream(`${suite.output.path}/upstream`, TIMEOUTS);
    suite.servers.push(upstream);
    const d = new Driver(upstream.client, suite.site);
    await d.go('/spin-tab');
    await settle(2500);
    const away = await d.go('/calm');
    t.diagnostic(`upstream: the navigate away took ${d.durations.at(-1)} ms`);
    assert.match(away, /Timeout \d+ms exceeded/);
  });

  for (const [name, enter] of PAGES)
    test(`${name}: the navigate away arrives, with a note, and the session goes on (ours)`, { timeout: 90_000 }, async (t) => {
      const ours = await connect(testEnv(`${suite.output.path}/ours`), TIMEOUTS);
      suite.servers.push(ours);
      const d = new Driver(ours.client, suite.site, BOUND_MS);
      await enter(d);
      const away = await d.go('/calm');
      t.diagnostic(`ours: the navigate away took ${d.durations.at(-1)} ms`);
      assert.deepEqual(d.slow, [], `it answers within ${BOUND_MS} ms`);
      assert.doesNotMatch(away, /### Error/);
      assert.match(away, /- Page Title: Calm page/);
      assert.match(away, LEFT_NOTE);
      assert.match(await d.call('browser_snapshot'), /heading "Calm"/);
      assert.match(await d.call('browser_tabs', { action: 'list' }), /^- 0: \(current\) \[Calm page\]/m, 'the same tab, no other');
    });

  // Going back through history leaves the page as a navigate does.
  test('back from a page whose loop started after it loaded: it arrives (ours)', { timeout: 90_000 }, async () => {
    const ours = await connect(testEnv(`${suite.output.path}/ours-back`), TIMEOUTS);
    suite.servers.push(ours);
    const d = new Driver(ours.client, suite.site, BOUND_MS);
    await d.go('/calm');
    await d.go('/spin-tab');
    await settle(2500);
    const back = await d.call('browser_navigate_back');
    assert.deepEqual(d.slow, []);
    assert.match(back, /- Page Title: Calm page/);
    assert.match(back, LEFT_NOTE);
  });
});
