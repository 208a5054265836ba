import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A frame of another site runs in its own renderer. When its script never
// yields, the page around it still answers, so no call times out; but every
// snapshot waits on that frame until Playwright gives it up after 30 s, and
// then leaves the frame out: on the upstream each navigate, wait or snapshot
// then takes ~30 s. Ours stops that frame's script once a call has waited 3 s
// on it (src/browser/stuck-frames.ts) and says so in the result.

const STOPPED = /Note: the frame (\S+) stopped responding/;

describe('a cross-origin frame whose script never yields', () => {
  const suite = useHostileSuite('spm-stuck-frames-');

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
});
