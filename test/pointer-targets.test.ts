import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { servePage, type Site } from './helpers/site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Where humanised input points: it must land where the upstream's click lands.
//
// An element larger than the viewport (a map, a canvas, a tall editor): the
// upstream's click and hover scroll it only as Chromium's
// scroll-into-view-if-needed does (not at all when it covers the viewport;
// its nearest edge to the viewport's edge when it shows in part) and press
// its visible part. Humanised input used to wheel on for such an element,
// never "wholly in view", 26 notches and 5 s a click, and aim at a point of
// the whole box, off the screen: the page ended scrolled far from where the
// upstream leaves it.

const PAGE = `<!doctype html><html><head><title>Large target</title><style>body { margin: 0 }</style></head><body>
<div style="height: 300px">header</div>
<div role="button" aria-label="Map" id="map" style="height: 3000px; background: linear-gradient(#cde, #edc)">map</div>
<div style="height: 400px">footer</div>
<script>
window.seen = { wheels: 0, clicks: [] };
addEventListener('wheel', () => seen.wheels++, { passive: true, capture: true });
map.addEventListener('click', (e) => seen.clicks.push({ x: e.clientX, y: e.clientY }));
</script></body></html>`;

// Elements whose bounding box is mostly something else: a link wrapped from
// the end of one line to the start of the next, a rotated bar. The upstream
// presses the middle of the element's own box; a point of the bounding box
// used to be refused by Playwright's hit check ("<body> intercepts pointer
// events") until the click timed out.
const SHAPES = `<!doctype html><html><head><title>Shapes</title></head><body>
<p style="width: 300px; font: 16px/20px sans-serif">Some text before the link that fills the line and then <a href="#wrapped" onclick="seen.link++">wrap link</a> and text after the link goes on and on.</p>
<div role="button" aria-label="Bar" onclick="seen.bar++" style="margin: 80px; width: 200px; height: 16px; background: #c88; transform: rotate(35deg)"></div>
<script>window.seen = { link: 0, bar: 0 };</script></body></html>`;

// A flyout menu that opens while the pointer is over its entry (CSS :hover):
// the upstream moves the pointer once, onto the item, and the menu stays
// open; a curve from the entry to the item leaves the menu, which closes
// under it, and the click waited for an item no longer shown until it timed out.
const MENU = `<!doctype html><html><head><title>Menu</title><style>
nav { position: relative; width: 160px; margin: 40px }
.entry { padding: 8px; background: #eee }
.flyout { display: none; position: absolute; left: 160px; top: 0; width: 160px; background: #ddf }
nav:hover .flyout { display: block }
.flyout a { display: block; padding: 6px }
</style></head><body><nav><div class="entry">Products</div><div class="flyout">${Array.from({ length: 12 }, (_, i) => `<a href="#i${i + 1}" onclick="seen.clicks.push(${i + 1})">Item ${i + 1}</a>`).join('')}</div></nav>
<script>window.seen = { clicks: [], moves: 0 }; addEventListener('mousemove', () => seen.moves++, true);</script></body></html>`;

// A field and a button that count the mouse moves before each press and the
// keys typed: with the page showing its actions (browser_video_show_actions),
// Playwright holds each input action for its callout, and a humanised click's
// moves were each a callout of their own ("Mouse move"), seconds a click.
const SHOWN = `<!doctype html><html><head><title>Shown</title></head><body>
<input aria-label="Name" style="margin: 300px 0 0 500px"><button id="go">Go</button>
<script>window.seen = { moves: 0, presses: [], keys: 0 }; addEventListener('mousemove', () => seen.moves++, true);
addEventListener('keydown', () => seen.keys++, true);
go.onclick = () => { seen.presses.push(seen.moves); seen.moves = 0; };</script></body></html>`;

// A button in a frame (a login form, a payment field, a captcha's checkbox):
// one frame of the page's origin's site, one of another site (its own
// renderer process). Each counts the mouse moves it saw before a click.
const IN_FRAME = `<!doctype html><html><head><title>Framed</title></head><body style="margin: 0">
<button id="go" style="margin: 60px 0 0 80px">Press</button><p id="out">none</p>
<script>let moves = 0; const seen = []; addEventListener('mousemove', () => moves++, true);
addEventListener('wheel', () => parent.postMessage('wheel', '*'), { passive: true, capture: true });
go.onclick = (e) => { seen.push(moves + '@' + e.clientX + ',' + e.clientY); moves = 0; out.textContent = name + ' ' + seen.join(' '); };</script></body></html>`;
const framesPage = (same: string, other: string) => `<!doctype html><html><head><title>Frames</title></head><body style="margin: 0">
<div style="height: 200px">top</div>
<iframe name="same" src="${same}" style="margin-left: 250px; width: 360px; height: 200px; border: 3px solid #888"></iframe>
<iframe name="other" src="${other}" style="margin-left: 40px; width: 360px; height: 200px; border: 0"></iframe></body></html>`;

// The frame far below the fold: the page notes when it scrolls and when a
// wheel turns over it or over the frame (which tells it by a message).
const lowFramePage = (inner: string, height = 200) => `<!doctype html><html><head><title>Low frame</title></head><body style="margin: 0">
<div style="height: 1600px">top</div>
<iframe name="low" src="${inner}" style="width: 360px; height: ${height}px; border: 0"></iframe><div style="height: 800px">bottom</div>
<script>window.seen = { wheels: [], scrolls: [] };
addEventListener('wheel', () => seen.wheels.push(performance.now()), { passive: true, capture: true });
addEventListener('message', (e) => { if (e.data === 'wheel') seen.wheels.push(performance.now()); });
addEventListener('scroll', () => seen.scrolls.push(performance.now()), { passive: true });</script></body></html>`;

// A frame that scrolls its button into view itself (900 px down in a 300 px
// frame): it tells what it saw when the button is pressed.
const TALL_FRAME = `<!doctype html><html><head><title>Tall frame</title></head><body style="margin: 0">
<div style="height: 900px">inner top</div><button id="go">Press</button><p id="out">none</p><div style="height: 600px"></div>
<script>const wheels = [], scrolls = [];
addEventListener('wheel', () => { wheels.push(performance.now()); parent.postMessage('wheel', '*'); }, { passive: true, capture: true });
addEventListener('scroll', () => scrolls.push(performance.now()), { passive: true });
go.onclick = () => { out.textContent = 'tall ' + JSON.stringify({ wheels: wheels.length, scrolls: scrolls.length, unwheeled: scrolls.filter((at) => !wheels.some((w) => w <= at && at - w < 1000)).length }); };</script></body></html>`;

// Full-height sections the document snaps to (scroll-snap-type: y mandatory on
// the root), the button in the sixth. Chromium snaps each notch of a CDP wheel
// (precise pixels) back to the nearest section, where a mouse's notch goes on
// to the next: wheeled, the page scrolled forth and back for 30 notches and 3.5 s.
const SNAP = `<!doctype html><html><head><title>Snap</title><style>html { scroll-snap-type: y mandatory } body { margin: 0 }
section { height: 100vh; scroll-snap-align: start; box-sizing: border-box; border-bottom: 1px solid #ccc }</style></head><body>
${Array.from({ length: 8 }, (_, i) => `<section>Section ${i}${i === 5 ? '<button style="margin-top: 40vh" onclick="seen.clicked++">Snap</button>' : ''}</section>`).join('')}
<script>window.seen = { wheels: 0, clicked: 0, backs: 0, y: 0 };
addEventListener('wheel', () => seen.wheels++, { passive: true, capture: true });
addEventListener('scroll', () => { if (scrollY < seen.y) seen.backs++; seen.y = scrollY; }, { passive: true });</script></body></html>`;

interface Seen {
  wheels: number;
  clicks: { x: number; y: number }[];
  scrollY: number;
  mapTop: number;
  viewport: number;
}

async function call(server: Connected, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await server.client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${textOf(result)}`);
  return textOf(result);
}

/** What a page function returned as a JSON string, parsed (browser_evaluate's result is that string, quoted). */
async function evaluated<T>(server: Connected, fn: string): Promise<T> {
  const text = await call(server, 'browser_evaluate', { function: fn });
  return JSON.parse(JSON.parse(text.match(/### Result\n(.*)/)![1]!)) as T;
}

async function read(server: Connected): Promise<Seen> {
  return evaluated<Seen>(server, '() => JSON.stringify({ ...seen, scrollY, mapTop: map.getBoundingClientRect().top, viewport: innerHeight })');
}

/** Scrolls the page by script to `y`, forgets what was seen, then clicks (or hovers) the map. */
async function pressMap(server: Connected, y: number, tool: 'browser_click' | 'browser_hover'): Promise<Seen> {
  await call(server, 'browser_evaluate', { function: `() => { scrollTo(0, ${y}); seen.wheels = 0; seen.clicks = []; }` });
  await call(server, tool, { target: await refOf(server, /button "Map"/), element: 'Map' });
  return read(server);
}

async function readSeen(server: Connected): Promise<{ clicks: number[]; moves: number }> {
  return evaluated<{ clicks: number[]; moves: number }>(server, '() => JSON.stringify(seen)');
}

async function refOf(server: Connected, label: RegExp): Promise<string> {
  const snapshot = await call(server, 'browser_snapshot');
  const ref = snapshot.match(new RegExp(`${label.source}[^\\n]*\\[ref=([a-z0-9]+)\\]`))?.[1];
  assert.ok(ref, snapshot);
  return ref;
}

describe('where humanised input points', () => {
  const dirs = useTempDir('spm-large-');
  let site: Site;
  let shapes: Site;
  let menu: Site;
  let inner: Site;
  let outer: Site;
  let low: Site;
  let tall: Site;
  let lowTall: Site;
  let snap: Site;
  let shown: Site;
  const servers: Connected[] = [];
  before(async () => {
    [site, shapes, menu, inner] = await Promise.all([servePage(PAGE), servePage(SHAPES), servePage(MENU), servePage(IN_FRAME)]);
    outer = await servePage(framesPage(inner.url, inner.url.replace('127.0.0.1', 'localhost')));
    low = await servePage(lowFramePage(inner.url.replace('127.0.0.1', 'localhost')));
    tall = await servePage(TALL_FRAME);
    lowTall = await servePage(lowFramePage(tall.url.replace('127.0.0.1', 'localhost'), 300));
    snap = await servePage(SNAP);
    shown = await servePage(SHOWN);
  });
  after(async () => {
    await closeAll(servers);
    await Promise.all([site.close(), shapes.close(), menu.close(), inner.close(), outer.close(), low.close(), tall.close(), lowTall.close(), snap.close(), shown.close()]);
  });

  test('an element larger than the viewport is clicked and hovered where it shows, scrolled only as the upstream scrolls it (the upstream CLI alongside)', { timeout: 180_000 }, async () => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream`), connect(testEnv(`${dirs.path}/ours`))]);
    servers.push(upstream, ours);
    for (const server of [upstream, ours]) await call(server, 'browser_navigate', { url: site.url });
    const run = async (server: Connected) => ({
      // The map covers the viewport: nothing to scroll.
      covering: await pressMap(server, 600, 'browser_click'),
      hoverCovering: await pressMap(server, 600, 'browser_hover'),
      // Its top shows at 300 px: brought up until it covers the viewport.
      below: await pressMap(server, 0, 'browser_click'),
    });
    const theirs = await run(upstream);
    const mine = await run(ours);
    const report = JSON.stringify({ upstream: theirs, ours: mine });

    for (const [name, seen] of Object.entries(theirs)) assert.equal(seen.wheels, 0, `upstream ${name}: ${report}`);
    assert.equal(theirs.covering.scrollY, 600, report);
    assert.equal(theirs.below.scrollY, 300, `the upstream aligns the nearest edge: ${report}`);

    // Covering: not a notch, not a pixel, as on the upstream; the click in the viewport.
    assert.equal(mine.covering.wheels, 0, report);
    assert.equal(mine.covering.scrollY, theirs.covering.scrollY, report);
    assert.equal(mine.hoverCovering.wheels, 0, report);
    assert.equal(mine.hoverCovering.scrollY, theirs.hoverCovering.scrollY, report);
    // In part: a few notches (the upstream scrolls 300 px; a notch is 120), the map then covers the viewport.
    assert.ok(mine.below.wheels >= 1 && mine.below.wheels <= 4, report);
    assert.ok(mine.below.mapTop <= 0 && mine.below.mapTop > -mine.below.viewport / 2, report);
    for (const seen of [mine.covering, mine.below]) {
      assert.equal(seen.clicks.length, 1, report);
      const [click] = seen.clicks;
      assert.ok(click!.y > 0 && click!.y < seen.viewport, `the click lands where the map shows: ${report}`);
    }
  });

  test('a wrapped link and a rotated bar are clicked on themselves, every time, as on the upstream (the upstream CLI alongside)', { timeout: 180_000 }, async () => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream-shapes`), connect(testEnv(`${dirs.path}/ours-shapes`))]);
    servers.push(upstream, ours);
    const run = async (server: Connected) => {
      await call(server, 'browser_navigate', { url: shapes.url });
      const link = await refOf(server, /link "wrap link"/);
      const bar = await refOf(server, /button "Bar"/);
      const errors: string[] = [];
      for (let i = 0; i < 4; i++) {
        for (const [ref, element] of [[link, 'wrap link'], [bar, 'Bar']] as const) {
          const result = await server.client.callTool({ name: 'browser_click', arguments: { target: ref, element } });
          if (result.isError) errors.push(textOf(result).split('\n').slice(0, 2).join(' '));
        }
      }
      return { seen: await evaluated<{ link: number; bar: number }>(server, '() => JSON.stringify(seen)'), errors };
    };
    const theirs = await run(upstream);
    const mine = await run(ours);
    const report = JSON.stringify({ upstream: theirs, ours: mine });
    assert.deepEqual(theirs, { seen: { link: 4, bar: 4 }, errors: [] }, report);
    assert.deepEqual(mine, theirs, report);
  });

  test('a button in a frame, of the same site and of another, is pressed by a pointer that travels there (the upstream CLI alongside)', { timeout: 180_000 }, async (t) => {
    {
      const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream-frames`), connect(testEnv(`${dirs.path}/ours-frames`))]);
      servers.push(upstream, ours);
      const run = async (server: Connected) => {
        await call(server, 'browser_navigate', { url: outer.url });
        const errors: string[] = [];
        for (let i = 0; i < 6; i++) {
          let refs: string[] = [];
          // The other site's frame may still be loading after the navigate.
          for (let tries = 0; refs.length < 2 && tries < 20; tries++) {
            if (tries) await new Promise((r) => setTimeout(r, 250));
            refs = [...(await call(server, 'browser_snapshot')).matchAll(/button "Press"[^\n]*\[ref=([a-z0-9]+)\]/g)].map((m) => m[1]!);
          }
          assert.equal(refs.length, 2, 'both frames are in the snapshot');
          const result = await server.client.callTool({ name: 'browser_click', arguments: { target: refs[i % 2]!, element: 'Press' } });
          if (result.isError) errors.push(textOf(result).split('\n').slice(0, 2).join(' '));
        }
        const snapshot = await call(server, 'browser_snapshot');
        const clicks = (frame: string) => (snapshot.match(new RegExp(`${frame}((?: \\d+@\\d+(?:\\.\\d+)?,\\d+(?:\\.\\d+)?)+)`))?.[1] ?? '').trim().split(' ').filter(Boolean);
        return { errors, same: clicks('same'), other: clicks('other') };
      };
      const theirs = await run(upstream);
      const mine = await run(ours);
      const report = JSON.stringify({ upstream: theirs, ours: mine });
      t.diagnostic(`moves in the frame before each click @ its point: ${report}`);
      assert.deepEqual([theirs.errors, theirs.same.length, theirs.other.length], [[], 3, 3], report);
      assert.deepEqual([mine.errors, mine.same.length, mine.other.length], [[], 3, 3], report);
      for (const click of [...mine.same, ...mine.other]) {
        const [moves, x, y] = click.split(/[@,]/).map(Number);
        // Moves inside the frame on the way, and a point a mouse lands on (whole pixels at a ratio of 1).
        assert.ok(moves! >= 3, `ours travels into the frame: ${report}`);
        assert.ok(Number.isInteger(x) && Number.isInteger(y), report);
      }
    }
  });

  test('a button below the fold of a page that snaps its scroll: scrolled to the section the upstream lands on, never back and forth (the upstream CLI alongside)', { timeout: 180_000 }, async () => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream-snap`), connect(testEnv(`${dirs.path}/ours-snap`))]);
    servers.push(upstream, ours);
    const run = async (server: Connected) => {
      await call(server, 'browser_navigate', { url: snap.url });
      await call(server, 'browser_click', { target: await refOf(server, /button "Snap"/), element: 'Snap' });
      return evaluated<{ wheels: number; clicked: number; backs: number; section: number }>(server, '() => JSON.stringify({ ...seen, section: Math.round(scrollY / innerHeight) })');
    };
    const theirs = await run(upstream);
    const mine = await run(ours);
    const report = JSON.stringify({ upstream: theirs, ours: mine });
    assert.deepEqual([theirs.clicked, theirs.section, theirs.backs], [1, 5, 0], report);
    assert.deepEqual([mine.clicked, mine.section, mine.backs], [theirs.clicked, theirs.section, 0], report);
  });

  /** Clicks the button of the frame far down `url`; what the page saw (wheels, scrolls, scrolls with no wheel before them) and the frame's own text. */
  async function pressLowFrame(server: Connected, url: string) {
    await call(server, 'browser_navigate', { url });
    let ref: string | undefined;
    // The other site's frame may still be loading after the navigate.
    for (let tries = 0; !ref && tries < 20; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 250));
      ref = (await call(server, 'browser_snapshot')).match(/button "Press"[^\n]*\[ref=([a-z0-9]+)\]/)?.[1];
    }
    assert.ok(ref, 'the frame is in the snapshot');
    await call(server, 'browser_click', { target: ref, element: 'Press' });
    const seen = await evaluated<{ wheels: number[]; scrolls: number[]; scrollY: number }>(server, '() => JSON.stringify({ ...seen, scrollY })');
    // A scroll event with no wheel turned in the second before it (a frame's wheel reaches the page by a message: 100 ms of slack after).
    const unwheeled = seen.scrolls.filter((at) => !seen.wheels.some((w) => w <= at + 100 && at - w < 1000)).length;
    const frame = await call(server, 'browser_snapshot');
    return { wheels: seen.wheels.length, scrolls: seen.scrolls.length, unwheeled, scrollY: seen.scrollY, clicked: /low (\d+@\S+)|tall \{/.test(frame), tall: frame.match(/tall (\{[^}\n]*\})/)?.[1]?.replaceAll('\\"', '"') };
  }

  /** pressLowFrame on the upstream CLI, then on ours; both results and their report (also given as the test's diagnostic). */
  async function pressLowFrameOnBoth(t: { diagnostic(message: string): void }, name: string, url: string) {
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream-${name}`), connect(testEnv(`${dirs.path}/ours-${name}`))]);
    servers.push(upstream, ours);
    const theirs = await pressLowFrame(upstream, url);
    const mine = await pressLowFrame(ours, url);
    const report = JSON.stringify({ upstream: theirs, ours: mine });
    t.diagnostic(report);
    return { theirs, mine, report };
  }

  test('a button in a frame below the fold: the page is wheeled to it, where the upstream scrolls by script (the upstream CLI alongside)', { timeout: 180_000 }, async (t) => {
    const { theirs, mine, report } = await pressLowFrameOnBoth(t, 'low', low.url);
    // The yardstick: the upstream reaches the frame by a script scroll, with no wheel.
    assert.ok(theirs.clicked && theirs.wheels === 0 && theirs.unwheeled > 0 && theirs.scrollY > 0, report);
    assert.ok(mine.clicked, report);
    assert.ok(mine.wheels > 0 && mine.scrollY > 0, report);
    assert.equal(mine.unwheeled, 0, `every scroll of the page follows a wheel: ${report}`);
  });

  test('a button below the fold of a frame below the fold: the page, then the frame, are wheeled to it (the upstream CLI alongside)', { timeout: 180_000 }, async (t) => {
    const { theirs, mine, report } = await pressLowFrameOnBoth(t, 'tall', lowTall.url);
    const inFrame = (side: typeof theirs) => JSON.parse(side.tall ?? 'null') as { wheels: number; scrolls: number; unwheeled: number } | null;
    const [their, my] = [inFrame(theirs), inFrame(mine)];
    // The yardstick: the upstream scrolls the page and the frame by script.
    assert.ok(their && their.wheels === 0 && their.unwheeled > 0 && theirs.unwheeled > 0, report);
    assert.ok(my, `ours pressed the button: ${report}`);
    assert.ok(my.wheels > 0 && my.scrolls > 0, report);
    assert.equal(my.unwheeled, 0, `every scroll of the frame follows a wheel in it: ${report}`);
    assert.equal(mine.unwheeled, 0, `every scroll of the page follows a wheel: ${report}`);
  });

  test('an item of a flyout menu open on hover is clicked, along the menu (the upstream CLI alongside)', { timeout: 180_000 }, async () => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream-menu`, ['--caps', 'vision']), connect(testEnv(`${dirs.path}/ours-menu`), ['--caps', 'vision'])]);
    servers.push(upstream, ours);
    const run = async (server: Connected) => {
      await call(server, 'browser_navigate', { url: menu.url });
      const entry = (await call(server, 'browser_snapshot')).match(/\[ref=([a-z0-9]+)\]: Products/)?.[1];
      assert.ok(entry, 'the menu entry is in the snapshot');
      const errors: string[] = [];
      const moves: number[] = [];
      for (let i = 0; i < 3; i++) {
        await call(server, 'browser_hover', { target: entry, element: 'Products' });
        const item = await refOf(server, /link "Item 12"/);
        const before = (await readSeen(server)).moves;
        const result = await server.client.callTool({ name: 'browser_click', arguments: { target: item, element: 'Item 12' } });
        if (result.isError) errors.push(textOf(result).split('\n').slice(0, 2).join(' '));
        moves.push((await readSeen(server)).moves - before);
        await call(server, 'browser_mouse_move_xy', { x: 600, y: 500 });
      }
      return { clicks: (await readSeen(server)).clicks, errors, moves };
    };
    const theirs = await run(upstream);
    const mine = await run(ours);
    const report = JSON.stringify({ upstream: theirs, ours: mine });
    assert.deepEqual({ clicks: theirs.clicks, errors: theirs.errors }, { clicks: [12, 12, 12], errors: [] }, report);
    assert.deepEqual({ clicks: mine.clicks, errors: mine.errors }, { clicks: theirs.clicks, errors: theirs.errors }, report);
    // Ours got there along a way (a hand's path), not in the one jump the upstream makes.
    assert.ok(mine.moves.every((n) => n > 3), report);
  });

  test('a page that shows its actions (browser_video_show_actions) gets the upstream\'s input, one callout an action; humanised again once hidden (the upstream CLI alongside)', { timeout: 180_000 }, async () => {
    const caps = ['--caps', 'devtools,vision'];
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream-shown`, caps), connect(testEnv(`${dirs.path}/ours-shown`), caps)]);
    servers.push(upstream, ours);
    const run = async (server: Connected) => {
      await call(server, 'browser_navigate', { url: shown.url });
      await call(server, 'browser_video_show_actions', { duration: 200 });
      await call(server, 'browser_type', { target: await refOf(server, /textbox "Name"/), element: 'Name', text: 'abc' });
      await call(server, 'browser_click', { target: await refOf(server, /button "Go"/), element: 'Go' });
      await call(server, 'browser_video_hide_actions');
      await call(server, 'browser_mouse_move_xy', { x: 50, y: 50 });
      await call(server, 'browser_click', { target: await refOf(server, /button "Go"/), element: 'Go' });
      const seen = await evaluated<{ presses: number[]; keys: number }>(server, '() => JSON.stringify(seen)');
      return { ...seen, value: await evaluated<string>(server, '() => JSON.stringify(document.querySelector("input").value)') };
    };
    const theirs = await run(upstream);
    const mine = await run(ours);
    const report = JSON.stringify({ upstream: theirs, ours: mine });
    assert.deepEqual([theirs.value, theirs.presses.length], ['abc', 2], report);
    // Shown: the text is filled and the pointer jumps to the button, as the upstream's (one callout each); hidden: it travels there again.
    assert.deepEqual([mine.value, mine.keys, mine.presses.length], [theirs.value, theirs.keys, 2], report);
    assert.ok(mine.presses[0]! <= theirs.presses[0]!, report);
    assert.ok(mine.presses[1]! > 3, report);
  });
});
