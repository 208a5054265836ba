import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// The upstream's browser_navigate waits for the page's load event, up to 5 s,
// once the document is in. A dialog opened from a load handler, or by a frame
// while it loads, holds that event until someone answers it: the upstream's
// navigate waits out the 5 s and then answers with the dialog. Ours answers
// with the same dialog as it opens.

const UPSTREAM_LOAD_WAIT_MS = 5_000;
const PAGES = ['/alert-onload', '/frame-alert'];

async function play(d: Driver) {
  await d.go('/calm');
  const times: number[] = [];
  for (const path of PAGES) {
    const started = Date.now();
    await d.go(path);
    times.push(Date.now() - started);
    await d.call('browser_handle_dialog', { accept: true });
    await d.call('browser_snapshot');
  }
  return times;
}

const CALLS = 10;
// Each call that reads the console (a tab list does) used to wait out that read's 0.5 s deadline on the popup behind its alert.
const WAITING_ON_THE_POPUP_MS = CALLS * 500;

async function popupLeftOpen(d: Driver) {
  await d.go('/popup-other-origin');
  await d.click('Open popup');
  for (let i = 0; i < 50 && !/- 1:/.test(await d.call('browser_tabs', { action: 'list' })); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  for (let i = 0; i < CALLS; i++) await d.call('browser_tabs', { action: 'list' });
  const ms = Date.now() - started;
  await d.call('browser_tabs', { action: 'select', index: 1 });
  await d.call('browser_handle_dialog', { accept: true });
  return ms;
}

describe('a dialog the page opens while it loads', () => {
  const suite = useHostileSuite('spm-load-dialogs-');

  test("a load handler's alert and a cross-origin frame's alert on load: the navigate answers with the dialog as it opens, and every result reads as the upstream CLI's (alongside, in the same run)", { timeout: 120_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const theirs = new Driver(upstream.client, suite.site);
    const mine = new Driver(ours.client, suite.site);
    const [theirTimes, myTimes] = await Promise.all([play(theirs), play(mine)]);
    t.diagnostic(`navigate to ${PAGES.join(', ')}: upstream ${theirTimes.join(', ')} ms, ours ${myTimes.join(', ')} ms`);
    assert.deepEqual(mine.shapes, theirs.shapes, 'the same modal states, pages and titles');
    assert.match(mine.shapes[1]!, /modal=\["alert" dialog\]/, 'the navigate names the load handler\'s alert');
    assert.match(mine.shapes.at(-1)!, /title=Framed alert/);
    for (const ms of theirTimes) assert.ok(ms >= UPSTREAM_LOAD_WAIT_MS, `the upstream waits out its load wait (${ms} ms)`);
    for (const ms of myTimes) assert.ok(ms < UPSTREAM_LOAD_WAIT_MS, `ours answers as the dialog opens, before that wait would end (${ms} ms)`);
  });

  test("an alert left open in a popup of another origin: calls on the page that opened it read as the upstream CLI's and none waits on the popup", { timeout: 120_000 }, async (t) => {
    const { upstream, ours } = await upstreamAndOurs(suite);
    const theirs = new Driver(upstream.client, suite.site);
    const mine = new Driver(ours.client, suite.site);
    const [theirMs, myMs] = await Promise.all([popupLeftOpen(theirs), popupLeftOpen(mine)]);
    t.diagnostic(`${CALLS} tab lists with the popup's alert open: upstream ${theirMs} ms, ours ${myMs} ms`);
    // How often each side polled for the popup to show is timing: the shapes are compared without repeats.
    const distinct = (shapes: string[]) => shapes.filter((shape, i) => shape !== shapes[i - 1]);
    // The upstream races the popup's alert against its page setup for the popup, and now and then loses
    // it (its tab lists no dialog, and answering one fails): then only the calls on the opener are compared.
    const theirsMissed = /browser_handle_dialog error=true/.test(theirs.shapes.at(-1)!);
    if (theirsMissed) t.diagnostic("the upstream missed the popup's alert this run; compared up to the popup's tab");
    const upToSelect = (shapes: string[]) => (theirsMissed ? distinct(shapes).filter((shape) => !/^browser_(tabs|handle_dialog) /.test(shape)) : distinct(shapes));
    assert.deepEqual(upToSelect(mine.shapes), upToSelect(theirs.shapes), 'the same pages, titles and modal states');
    assert.match(mine.shapes.at(-1)!, /browser_handle_dialog error=false/, "the popup's alert is answered once its tab is selected");
    assert.ok(myMs < WAITING_ON_THE_POPUP_MS, `no call waited on the popup (${myMs} ms for ${CALLS})`);
  });
});
