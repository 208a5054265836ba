import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A frame or a popup of another site runs in its own renderer. When its
// script never yields, the current page still answers, so no call times out;
// but every snapshot waits on such a frame until Playwright gives it up after
// 30 s, and then leaves the frame out, and every result that lists the tabs
// reads such a popup's title with no deadline: on the upstream each navigate,
// wait or snapshot then takes ~30 s, or never answers. Ours stops that script
// once a call has waited on it (src/browser/stuck-scripts.ts) and says so.

const STOPPED = /Note: the frame (\S+) stopped responding/;

describe('a cross-origin frame or popup whose script never yields', () => {
  const suite = useHostileSuite('spm-stuck-scripts-');

  test('ours stops the frame\'s script: the call says which frame, the page is read with the frame in it, and the frame takes clicks again; the upstream leaves the frame out of its snapshot (the upstream CLI alongside, in the same run)', { timeout: 200_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const theirs = new Driver(upstream.client, suite.site);
    const mine = new Driver(ours.client, suite.site);
    const upstreamRun = (async () => {
      await theirs.go('/frame-spin');
      await theirs.call('browser_wait_for', { time: 2 });
      return theirs.call('browser_snapshot');
    })();
    const navigated = await mine.go('/frame-spin');
    // The frame spins from 1.5 s after it loaded: the wait's snapshot meets it.
    const waited = await mine.call('browser_wait_for', { time: 2 });
    const snapshot = await mine.call('browser_snapshot');
    const clicked = await mine.click('Frame button');
    const after = await mine.call('browser_snapshot');
    const upstreamSnapshot = await upstreamRun;
    t.diagnostic(`call durations (ms), upstream CLI: ${theirs.durations.join(', ')}; ours: ${mine.durations.join(', ')}`);

    const notes = [navigated, waited].flatMap((text) => text.match(STOPPED)?.[1] ?? []);
    assert.deepEqual(notes, [`${suite.site.otherOrigin}/spin-frame`], `ours: one call named the stuck frame: ${waited}`);
    assert.match(snapshot, /button "Frame button"/, `ours: the frame is in the snapshot: ${snapshot}`);
    assert.doesNotMatch(snapshot, /Note:/, 'ours: once stopped, nothing more to say');
    assert.doesNotMatch(clicked, /^### Error/m, `ours: the frame's button takes the click: ${clicked}`);
    assert.match(after, /button "frame clicked"/, `ours: the frame ran the click's handler: ${after}`);
    // The reference: the same page leaves the upstream without the frame.
    assert.match(upstreamSnapshot, /heading "Around the frame"/, `upstream: the page itself is read: ${upstreamSnapshot}`);
    assert.doesNotMatch(upstreamSnapshot, /Frame button/, `upstream: the stuck frame is left out: ${upstreamSnapshot}`);
  });

  test('a popup: ours stops its script, the call names the tab, which stays open and is read once selected; the upstream gives no answer (the upstream CLI alongside, in the same run)', { timeout: 200_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    // 20 s is enough to show the upstream's call does not end by itself: it has no deadline here.
    const theirs = new Driver(upstream.client, suite.site, 10_000);
    const mine = new Driver(ours.client, suite.site);
    const upstreamRun = (async () => {
      await theirs.go('/popup-spin');
      await theirs.click('Open popup');
      return theirs.call('browser_wait_for', { time: 2 });
    })();
    await mine.go('/popup-spin');
    const clicked = await mine.click('Open popup');
    // The popup spins from 1.5 s after it loaded: the wait's tab list meets it (on a loaded machine, the click's own may).
    const waited = await mine.call('browser_wait_for', { time: 2 });
    const listed = await mine.call('browser_tabs', { action: 'list' });
    await mine.call('browser_tabs', { action: 'select', index: 1 });
    const snapshot = await mine.call('browser_snapshot');
    const upstreamWaited = await upstreamRun;
    t.diagnostic(`call durations (ms), upstream CLI: ${theirs.durations.join(', ')} (${theirs.slow.join('; ')}); ours: ${mine.durations.join(', ')}`);

    const named = [clicked, waited].filter((text) => text.includes(`Note: the tab ${suite.site.otherOrigin}/spin-tab stopped responding`));
    assert.equal(named.length, 1, `ours: one call names the stuck tab: click: ${clicked}\nwait: ${waited}`);
    assert.doesNotMatch(waited, /^### Error/m, 'ours: the wait itself succeeded');
    assert.match(listed, /\[Spinning tab\]/, `ours: the tab stays open: ${listed}`);
    assert.match(snapshot, /popup text/, `ours: the tab is read once selected: ${snapshot}`);
    // The reference: the upstream's wait reads the same tab's title and never answers.
    assert.equal(upstreamWaited, '', `upstream: no answer within 20 s: ${upstreamWaited}`);
  });
  // The popups of a page of the same site share its renderer: silent while the page computes, they
  // are not stuck, and a stop sent to them would end the script of the page the agent waits on.
  test('a page computing for 9 s beside popups of its own site: its work finishes and the wait sees it, as on the upstream (the upstream CLI alongside, in the same run)', { timeout: 200_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const run = async (d: Driver) => {
      await d.go('/compute-with-popups');
      await d.click('Open popups');
      await d.call('browser_tabs', { action: 'select', index: 0 });
      await d.click('Compute');
      return d.call('browser_wait_for', { text: 'computed' });
    };
    const theirs = new Driver(upstream.client, suite.site);
    const mine = new Driver(ours.client, suite.site);
    const [upstreamWaited, waited] = await Promise.all([run(theirs), run(mine)]);
    t.diagnostic(`call durations (ms), upstream CLI: ${theirs.durations.join(', ')}; ours: ${mine.durations.join(', ')}`);
    assert.match(upstreamWaited, /computed/, `upstream: the wait sees the page's work done: ${upstreamWaited}`);
    assert.doesNotMatch(waited, /^### Error/m, `ours: the wait succeeded: ${waited}`);
    assert.doesNotMatch(waited, /stopped responding/, `ours: no tab was taken as stuck: ${waited}`);
    assert.match(await mine.call('browser_snapshot'), /computed/);
  });
});
