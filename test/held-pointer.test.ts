import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, titleOf, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A "Share your screen" button (getDisplayMedia) opens Chromium's
// screen-sharing picker, headless too, where nobody can answer it: from then
// on the tab takes no mouse input, and every click reports success and
// reaches nothing, on the upstream as on ours. Ours says so in the result
// (src/browser/humanize/held-pointer.ts); a navigation closes the picker.

const HELD = /Note: the pointer did not reach the page/;

describe('a page that opens the screen-sharing picker', () => {
  const suite = useHostileSuite('spm-held-pointer-');

  test('the next click reaches nothing on both; ours says why, and after a navigate clicks reach the page again (the upstream CLI alongside, in the same run)', { timeout: 150_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const play = async (d: Driver) => {
      await d.go('/screen-share');
      const opened = await d.click('Share your screen');
      const held = await d.click('After the picker');
      await d.go('/screen-share');
      const freed = await d.click('After the picker');
      return { opened, held, freed };
    };
    const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, suite.site)), play(new Driver(ours.client, suite.site))]);
    t.diagnostic(`titles, upstream CLI: ${[theirs.held, theirs.freed].map(titleOf).join(' / ')}; ours: ${[mine.held, mine.freed].map(titleOf).join(' / ')}`);
    // What the page went through: the same on both.
    assert.equal(titleOf(theirs.held), 'Screen share', 'upstream: the click after the picker opened reached nothing');
    assert.equal(titleOf(mine.held), titleOf(theirs.held), 'ours: the same page');
    assert.equal(titleOf(theirs.freed), 'Screen share | after', 'upstream: after a navigate the click reaches the page');
    assert.equal(titleOf(mine.freed), titleOf(theirs.freed), 'ours: the same page');
    // What the agent reads: ours says why its click did nothing, only then.
    assert.match(mine.held, HELD);
    assert.doesNotMatch(theirs.held, /Note:/);
    for (const text of [mine.opened, mine.freed]) assert.doesNotMatch(text, HELD);
  });

  test('a page without a doctype (quirks mode, where a bare :hover matches links only): the click reaches the button on both, and ours says nothing of a held pointer (the upstream CLI alongside)', { timeout: 120_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const play = async (d: Driver) => {
      await d.go('/quirks');
      return [await d.click('Quirky button'), await d.click('Quirky button')];
    };
    const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, suite.site)), play(new Driver(ours.client, suite.site))]);
    t.diagnostic(`titles, upstream CLI: ${theirs.map(titleOf).join(' / ')}; ours: ${mine.map(titleOf).join(' / ')}`);
    for (const [i, text] of mine.entries()) {
      assert.equal(titleOf(text), `Quirks${' +'.repeat(i + 1)}`, `ours, click ${i + 1}: the button got it`);
      assert.equal(titleOf(text), titleOf(theirs[i]!), `click ${i + 1}: the same page on both`);
      assert.doesNotMatch(text, HELD, `ours, click ${i + 1}: no held pointer to speak of`);
    }
  });
});
