import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { servePage, type Site } from './helpers/site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A viewport the user sets (`--viewport-size 1280x800`, the README's own
// drop-in example) is the page's on both sides. Playwright alone then
// reports a screen of exactly that size, with the window (the viewport plus
// the browser's bars) taller than its screen: no desktop shows that, and
// probes read it (screen equal to the viewport, a window off its screen).
// Ours puts such a viewport on the smallest common desktop screen that holds
// its window, as it does behind its own default viewport.

interface Geometry {
  inner: number[];
  outer: number[];
  screen: number[];
  avail: number[];
}

const READ = '() => JSON.stringify({ inner: [innerWidth, innerHeight], outer: [outerWidth, outerHeight], screen: [screen.width, screen.height], avail: [screen.availWidth, screen.availHeight] })';

async function geometry(side: Connected, url: string): Promise<Geometry> {
  await side.client.callTool({ name: 'browser_navigate', arguments: { url } });
  const read = textOf(await side.client.callTool({ name: 'browser_evaluate', arguments: { function: READ } }));
  return JSON.parse(JSON.parse(read.match(/### Result\n(.*)/)![1]!)) as Geometry;
}

describe('a viewport the user sets: the page gets it, on a screen that holds its window (the upstream CLI alongside)', () => {
  const dirs = useTempDir('spm-viewport-screen-');
  let site: Site;
  const sides: Connected[] = [];
  let theirs: Geometry;
  let mine: Geometry;
  before(async () => {
    site = await servePage('<title>Geometry</title><p>geometry</p>');
    const args = ['--viewport-size', '1280x800'];
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream`, args), connect(testEnv(`${dirs.path}/ours`), args)]);
    sides.push(upstream, ours);
    theirs = await geometry(upstream, site.url);
    mine = await geometry(ours, site.url);
  });
  after(async () => {
    await closeAll(sides);
    await site?.close();
  });

  test('the viewport is the one asked for, as on the upstream', () => {
    assert.deepEqual(theirs.inner, [1280, 800]);
    assert.deepEqual(mine.inner, [1280, 800]);
    assert.deepEqual(mine.outer, theirs.outer, 'the same window around it');
  });

  test("the upstream's screen is the viewport, below its window; ours holds the window, a desktop's size", (t) => {
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.deepEqual(theirs.screen, [1280, 800], 'the reference: Playwright reports the viewport as the screen');
    assert.ok(theirs.outer[1]! > theirs.avail[1]!, 'the reference: its window is taller than its screen');
    assert.notDeepEqual(mine.screen, mine.inner);
    assert.ok(mine.avail[0]! >= mine.outer[0]! && mine.avail[1]! >= mine.outer[1]!, 'the window fits the screen');
    assert.deepEqual(mine.screen, [1680, 1050]);
  });
});
