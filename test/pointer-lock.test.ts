import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A page that locks the pointer (requestPointerLock: a game, a 3D viewer, a
// trap) takes every mouse event wherever it is aimed: on the upstream every
// later click on an element times out as "intercepted", and an Escape sent
// over CDP does not unlock it (the browser's own key handling does). A person
// presses Esc: the page sees its pointerlockchange and no key. Ours exits the
// lock that way before an action aimed at an element and for the agent's
// Escape (src/browser/pointer-lock.ts), and says so in the result.

const seen = (snapshot: string) => snapshot.match(/seen:([^"\n]*)/)?.[1]?.trim() ?? '';

describe('a page that locks the pointer', () => {
  const suite = useHostileSuite('spm-pointer-lock-');

  test('ours: the next click reaches its element, Escape exits the lock as a person\'s Esc does (the upstream CLI alongside, in the same run)', { timeout: 120_000 }, async (t) => {
    const { site } = suite;
    const { upstream, ours } = await upstreamAndOurs(suite);
    const lockThenPing = async (d: Driver) => {
      await d.go('/pointer-lock');
      await d.click('Play');
      return { ping: await d.click('Ping'), seen: seen(await d.call('browser_snapshot')) };
    };
    const [theirs, mine] = await Promise.all([lockThenPing(new Driver(upstream.client, site)), lockThenPing(new Driver(ours.client, site))]);
    t.diagnostic(`upstream CLI: the click on Ping ${/TimeoutError/.test(theirs.ping) ? 'timed out' : 'answered'}; the page saw: ${theirs.seen}`);
    assert.doesNotMatch(mine.ping, /Error/, 'ours: the click on Ping succeeds');
    assert.match(mine.ping, /the page had locked the pointer \(requestPointerLock\).*the lock was exited first, as Esc exits it/);
    assert.equal(mine.seen, 'locked, unlocked, ping', 'ours: the lock was let go before the click, which reached Ping');

    const d = new Driver(ours.client, site);
    await d.click('Play');
    const escape = await d.call('browser_press_key', { key: 'Escape' });
    assert.match(escape, /the lock was exited first/);
    assert.equal(seen(await d.call('browser_snapshot')), 'locked, unlocked, ping, locked, unlocked', 'Escape under the lock: unlocked, and no key reaches the page');
    const plain = await d.call('browser_press_key', { key: 'Escape' });
    assert.doesNotMatch(plain, /pointer/);
    assert.equal(seen(await d.call('browser_snapshot')), 'locked, unlocked, ping, locked, unlocked, key Escape', 'Escape with no lock reaches the page, as upstream');

    // A lock held in a frame takes the pointer over the whole page: the upstream's click reports success and reaches nothing.
    const framed = async (driver: Driver) => {
      await driver.go('/pointer-lock-frame');
      await driver.click('Play');
      return { click: await driver.click('Top ping'), title: (await driver.call('browser_snapshot')).match(/Page Title: (.*)/)?.[1] };
    };
    const [theirsFramed, mineFramed] = await Promise.all([framed(new Driver(upstream.client, site)), framed(d)]);
    t.diagnostic(`upstream CLI, lock in a frame: the click on Top ping ${/Error/.test(theirsFramed.click) ? 'failed' : 'reported success'}; page title: ${theirsFramed.title}`);
    assert.match(mineFramed.click, /the lock was exited first/);
    assert.equal(mineFramed.title, 'top ping', 'ours: the click reached the top page');
    assert.deepEqual(d.slow, []);
  });
});
