import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, titleOf, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A "Share your screen" button (getDisplayMedia) opens Chromium's
// screen-sharing picker, headless too, where nobody can answer it, and a
// page's own request that asks for HTTP authentication its sign-in prompt:
// from then on the tab takes no mouse input, and every click reports success
// and reaches nothing, on the upstream as on ours. Ours says so in the result
// (src/browser/humanize/held-pointer.ts); a navigation closes the picker.

const HELD = /Note: the pointer did not reach the page/;

describe('a page that opens a window of the browser\'s own (the screen-sharing picker, an HTTP sign-in prompt)', () => {
  const suite = useHostileSuite('spm-held-pointer-');

  // The picker (getDisplayMedia), and the sign-in prompt of a page's own request that asks for HTTP authentication.
  for (const [path, opener, after, opened] of [
    ['/screen-share', 'Share your screen', 'After the picker', 'Screen share'],
    ['/auth-request', 'Load the report', 'After the prompt', 'asking'],
  ] as const)
    test(`${path}: the next click reaches nothing on both; ours says why, and after a navigate clicks reach the page again (the upstream CLI alongside, in the same run)`, { timeout: 150_000 }, async (t) => {
      const { upstream, ours } = await upstreamAndOurs(suite);
      const play = async (d: Driver) => {
        await d.go(path);
        const opening = await d.click(opener);
        const held = await d.click(after);
        await d.go(path);
        const freed = await d.click(after);
        return { opening, held, freed };
      };
      const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, suite.site)), play(new Driver(ours.client, suite.site))]);
      t.diagnostic(`titles, upstream CLI: ${[theirs.held, theirs.freed].map(titleOf).join(' / ')}; ours: ${[mine.held, mine.freed].map(titleOf).join(' / ')}`);
      // What the page went through: the same on both.
      assert.equal(titleOf(theirs.held), opened, 'upstream: the click after the prompt opened reached nothing');
      assert.equal(titleOf(mine.held), titleOf(theirs.held), 'ours: the same page');
      const title = path === '/auth-request' ? 'Report' : opened;
      assert.equal(titleOf(theirs.freed), `${title} | after`, 'upstream: after a navigate the click reaches the page');
      assert.equal(titleOf(mine.freed), titleOf(theirs.freed), 'ours: the same page');
      // What the agent reads: ours says why its click did nothing, only then.
      assert.match(mine.held, HELD);
      assert.doesNotMatch(theirs.held, /Note:/);
      for (const text of [mine.opening, mine.freed]) assert.doesNotMatch(text, HELD);
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

  test('a click where the last one was, in a document loaded under the pointer since (no move on the way, no :hover yet): the page gets it on both, and ours says nothing of a held pointer (the upstream CLI alongside)', { timeout: 120_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const play = async (d: Driver) => {
      const clicks = [];
      for (let i = 0; i < 2; i++) {
        await d.go('/tiny-button');
        clicks.push(await d.click('Tiny'));
      }
      return clicks;
    };
    const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, suite.site)), play(new Driver(ours.client, suite.site))]);
    t.diagnostic(`titles, upstream CLI: ${theirs.map(titleOf).join(' / ')}; ours: ${mine.map(titleOf).join(' / ')}`);
    for (const [i, text] of mine.entries()) {
      assert.equal(titleOf(theirs[i]!), 'Tiny +', `upstream, click ${i + 1}: the button got it`);
      assert.equal(titleOf(text), titleOf(theirs[i]!), `ours, click ${i + 1}: the same page`);
      assert.doesNotMatch(text, HELD, `ours, click ${i + 1}: no held pointer to speak of`);
    }
  });
});
