import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A call that times out makes ours check for pages whose script never yields
// and close them (the upstream leaves such a session stuck). A page can also
// be silent without running anything: after a full-page screenshot of a page
// 150,000 px tall, Chromium's GPU process stays busy for seconds and the
// page's thread waits on it. That page is not stuck: the upstream keeps it,
// and a later screenshot works. Ours used to close it.
// A page of long tasks answers each question only between two of them:
// humanised input, a dozen questions and moves on the pointer's way, waited
// out a task at each (a click answered 5-12 s after the upstream's).

async function play(d: Driver) {
  await d.go('/very-tall');
  const said = [
    await d.call('browser_take_screenshot', { fullPage: true, type: 'png' }),
    await d.call('browser_take_screenshot', { type: 'jpeg' }),
    await d.call('browser_take_screenshot', { type: 'png' }),
  ];
  // Until the browser is done with the huge screenshot (a few tries, as an agent would).
  let last = '';
  for (let i = 0; i < 4; i++) {
    last = await d.call('browser_take_screenshot', { type: 'png' });
    if (!/### Error/.test(last)) break;
  }
  const where = await d.call('browser_evaluate', { function: '() => location.pathname' });
  return { closed: said.concat(last).some((text) => /stopped responding/.test(text)), lastOk: !/### Error/.test(last), where: where.match(/### Result\n"([^"]*)"/)?.[1] };
}

/** Clicks on the long-task page's disabled button (a timeout on both sides): how long each call took. */
async function clicksOnLongTasks(d: Driver, count: number): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < count; i++) {
    await d.go('/long-tasks');
    // Its tasks start 1 s after load.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await d.click('Not yet');
    took.push(d.durations.at(-1)!);
  }
  return took;
}

describe('a page silent while the browser works for it', () => {
  const suite = useHostileSuite('spm-busy-renderer-');

  test('screenshots of a page 150,000 px tall: the page stays open and a later screenshot works, as under the upstream CLI (alongside, in the same run)', { timeout: 240_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, suite.site)), play(new Driver(ours.client, suite.site))]);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.equal(mine.closed, false, 'no result says the page was closed');
    assert.equal(mine.where, '/very-tall', 'the page is still the current tab');
    assert.deepEqual(mine, theirs);
  });

  // Waiting on the page at each step of the way cost 15-35 s over three clicks (the click times out on both sides).
  test('a page of 2.5 s tasks: a click answers when the upstream CLI\'s does (alongside, in the same run)', { timeout: 240_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const [theirs, mine] = [new Driver(upstream.client, suite.site), new Driver(ours.client, suite.site)];
    const [theirTimes, myTimes] = await Promise.all([clicksOnLongTasks(theirs, 3), clicksOnLongTasks(mine, 3)]);
    t.diagnostic(`click took (ms): upstream CLI ${theirTimes.join(', ')}; ours ${myTimes.join(', ')}`);
    assert.deepEqual(mine.shapes, theirs.shapes, 'the same results');
    const sum = (times: number[]) => times.reduce((a, b) => a + b, 0);
    // Ours checks the page after a call times out (what keeps a session on a page that never yields
    // usable); this page, which ran Playwright's script a moment before, is not waited for (it would
    // answer only between two of its tasks: 9.2-12.3 s over the upstream's for the three clicks when it
    // was, 2026-12-04). A click ends at a task's end on both, so one task (2.5 s) a click is allowed.
    // Waiting out a task at each step of the way, as before, cost 15-35 s.
    assert.ok(sum(myTimes) <= sum(theirTimes) + 7_500, `ours took ${sum(myTimes)} ms for the clicks, the upstream ${sum(theirTimes)} ms`);
  });
});
