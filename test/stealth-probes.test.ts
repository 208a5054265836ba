import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { startProbeSite, type ProbeSite } from './helpers/probe-site.ts';
import { connect, runCli, testEnv, textOf, type Connected, closeAll } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

interface Probe {
  moves: [number, number, number][];
  /** x, y, moves before it, trusted, target id, and the window's bars: [left and top as the click places the page in the window, outer − inner width and height]. */
  clicks: [number, number, number, boolean, string, number[]][];
  /** keydown or keyup, the key, when. */
  keyEvents: [string, string, number][];
  stackRead: boolean;
  prepareStackTrace: boolean;
  lateHook: false | 'at once' | 'later';
  modelContextReads: number;
  timersSet: number[];
  builtinCalls: string[];
  selectEvents: string[];
  picked: string;
  workerHooks: Record<string, boolean>;
  consoleNative: boolean;
  webdriver: boolean;
  ua: Record<string, string>;
  geometry: { inner: number[]; outer: number[]; screen: number[]; avail: number[] };
}

/** Drives the probe page only through MCP tools (navigate, snapshot, click, type, one evaluate to read the result). */
async function drive(client: Client, url: string): Promise<Probe> {
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  await call('browser_navigate', { url });
  const snap = textOf(await call('browser_snapshot'));
  const ref = (label: string) => snap.match(new RegExp(`"${label}"[^\\n]*\\[ref=([a-z0-9]+)\\]`))![1];
  await call('browser_click', { target: ref('Target'), element: 'Target' });
  await call('browser_type', { target: ref('Field'), element: 'Field', text: 'hello world' });
  await call('browser_select_option', { target: ref('Pick'), element: 'Pick', values: ['Three'] });
  await call('browser_fill_form', { fields: [{ name: 'Consent', type: 'checkbox', target: ref('Consent'), value: 'true' }] });
  await call('browser_wait_for', { time: 1 });
  const read = textOf(await call('browser_evaluate', { function: '() => JSON.stringify(window.__probe)' }));
  const json = JSON.parse(read.match(/### Result\n([\s\S]*?)\n###/)![1]!);
  const picked = textOf(await call('browser_snapshot')).match(/option "(\w+)" \[selected\]/)?.[1] ?? 'none';
  return { ...(JSON.parse(json) as Probe), picked };
}

function stdev(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
}

// The points of the stealth issue the bridge is responsible for, on our
// default engine (Debian Chromium through --binary-path) and, in the same
// run, on the upstream CLI as the reference.
describe('automation probes: no signal of our own, one identity everywhere, human input', () => {
  const output = useTempDir('spm-probes-');
  let site: ProbeSite;
  let ours: Probe;
  let upstream: Probe;
  let oursUnread: Probe;
  let unreadConsole: string;
  const servers: Connected[] = [];
  before(async () => {
    site = await startProbeSite();
    const a = await connect(testEnv(`${output.path}/ours`));
    const b = await connectUpstream(`${output.path}/upstream`);
    const c = await connect(testEnv(`${output.path}/unread`, { STEALTH_PLAYWRIGHT_MCP_CONSOLE_CAPTURE: 'false' }));
    servers.push(a, b, c);
    ours = await drive(a.client, `${site.url}/`);
    upstream = await drive(b.client, `${site.url}/`);
    oursUnread = await drive(c.client, `${site.url}/`);
    unreadConsole = textOf(await c.client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } }));
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test("nothing of ours reads a logged object's getters or leaves a non-native console (as under the upstream CLI)", () => {
    assert.equal(ours.stackRead, upstream.stackRead, 'the same as plain Playwright');
    assert.equal(ours.stackRead, false);
    assert.equal(ours.consoleNative, true);
    assert.equal(ours.webdriver, false);
  });

  test('a logged Error calls no Error.prepareStackTrace of the page (the Runtime.enable leak the upstream CLI has, same run)', () => {
    assert.equal(upstream.prepareStackTrace, true, 'the reference: plain Playwright keeps the Runtime domain on');
    assert.equal(ours.prepareStackTrace, false);
  });

  test('a hook left installed: the upstream calls it as the Error is logged, ours at the next sync; with --console-capture=false never, and no console message is listed', () => {
    assert.equal(upstream.lateHook, 'at once', 'the reference');
    assert.equal(ours.lateHook, 'later', 'the cost of collecting the console: the sync describes what the page logged');
    // Never as it is logged; a message logged between a sync's discard and its enable is still described (runtime-shim.ts), which a busy machine allows.
    assert.notEqual(oursUnread.lateHook, 'at once');
    assert.equal(oursUnread.prepareStackTrace, false);
    assert.match(unreadConsole, /Total messages: 0\b/);
  });

  test("nothing reads the page's WebMCP entry points (document/navigator.modelContext) in its own world, as on the upstream CLI (0.0.86 asks Chromium's own WebMCP from its utility world)", () => {
    assert.equal(upstream.modelContextReads, 0, 'the reference');
    assert.equal(ours.modelContextReads, 0);
    assert.equal(oursUnread.modelContextReads, 0);
  });

  test("a page spying on its built-ins (Array.prototype.slice, push..., JSON) sees none called by ours; the upstream CLI's utility script in the page's world calls them at every tool call", () => {
    assert.ok(upstream.builtinCalls.includes('Array.slice'), `the reference: ${JSON.stringify(upstream.builtinCalls)}`);
    assert.deepEqual(ours.builtinCalls, []);
  });

  test("no timer set in the page's world after a click or typing, as on the upstream CLI (its settle wait set a 500 ms one after each before 0.0.86)", () => {
    assert.deepEqual(upstream.timersSet, [], 'the reference');
    assert.deepEqual(ours.timersSet, []);
  });

  test('choosing an option gives the page trusted input and change events (a click opens the list, keys choose); the upstream CLI sets it from script', () => {
    assert.deepEqual(upstream.selectEvents, ['input:false', 'change:false'], 'the reference');
    assert.deepEqual(ours.selectEvents, ['input:true', 'change:true']);
    assert.equal(ours.picked, 'Three');
    assert.equal(upstream.picked, 'Three');
  });

  test('nor in a dedicated or a service worker (the upstream CLI leaks in both, same run); a shared worker is clean on both', () => {
    console.log('worker hooks: ours %j, upstream %j', ours.workerHooks, upstream.workerHooks);
    assert.deepEqual({ worker: upstream.workerHooks.worker, service: upstream.workerHooks.service }, { worker: true, service: true }, 'the reference: plain Playwright enables the domain in workers');
    assert.deepEqual(ours.workerHooks, { worker: false, shared: false, service: false });
    assert.deepEqual(oursUnread.workerHooks, { worker: false, shared: false, service: false });
    assert.equal(upstream.workerHooks.shared, false);
  });

  test('one user agent in the page, an iframe, a dedicated, a shared and a service worker; never HeadlessChrome', () => {
    const values = ['page', 'iframe', 'worker', 'shared', 'service'].map((k) => ours.ua[k]);
    assert.ok(values.every((v) => v === ours.ua.page), JSON.stringify(ours.ua));
    assert.doesNotMatch(JSON.stringify(ours.ua), /Headless/);
    assert.equal(ours.ua.workerBrands, ours.ua.pageBrands);
    // The upstream leaks HeadlessChrome into workers (its override is CDP-only): the reason for this test.
    assert.match(JSON.stringify(upstream.ua), /HeadlessChrome/);
  });

  test("no fixed automation viewport: not Playwright's 1280x720, and the screen holds the window", () => {
    assert.notDeepEqual(ours.geometry.inner, [1280, 720]);
    assert.ok(ours.geometry.screen[0]! >= ours.geometry.inner[0]! && ours.geometry.screen[1]! >= ours.geometry.inner[1]!, JSON.stringify(ours.geometry));
    // The window with the browser's bars fits the screen's available height, as on any desktop (Playwright
    // alone reports a screen the size of the viewport, below the window).
    assert.ok(ours.geometry.avail[1]! >= ours.geometry.outer[1]! && ours.geometry.outer[1]! > ours.geometry.inner[1]!, JSON.stringify(ours.geometry));
  });

  // Playwright sizes a window by the bars of a headed one when the user agent has no "Headless" in it (ours'):
  // outer − inner read 8 and 85 while a click placed the page 0 and 87 px into the window, which no window has.
  test("the window's bars read the same from a click and from outer − inner sizes, as on the upstream CLI", () => {
    const [bars] = ours.clicks.map((c) => c[5]);
    const [upstreamBars] = upstream.clicks.map((c) => c[5]);
    assert.deepEqual(upstreamBars!.slice(0, 2), upstreamBars!.slice(2), `the reference: ${JSON.stringify(upstreamBars)}`);
    assert.deepEqual(bars!.slice(0, 2), bars!.slice(2), `a click's offsets, then outer − inner: ${JSON.stringify(bars)}`);
  });

  test('a click comes after a pointer path with uneven timing; keys arrive with uneven delays (the upstream: one jump, even keys)', () => {
    const [click] = ours.clicks;
    assert.ok(click, 'the click arrived');
    assert.ok(click[2] >= 8, `${click[2]} pointer moves before the click`);
    assert.equal(click[3], true, 'a trusted event');
    const gaps = ours.moves.slice(1, click[2]).map((m, i) => m[2] - ours.moves[i]![2]);
    assert.ok(stdev(gaps) > 1, `move timing varies: ${gaps.map(Math.round)}`);
    const downs = ours.keyEvents.filter(([type]) => type === 'keydown').map(([, , at]) => at);
    const keyGaps = downs.slice(1).map((at, i) => at - downs[i]!);
    // Each down's hold until its key comes up (the select's keys below reach its list as well as the page).
    const holds = ours.keyEvents.flatMap(([type, key, at], i) => {
      const up = type === 'keydown' ? ours.keyEvents.slice(i + 1).find((e) => e[0] === 'keyup' && e[1] === key) : undefined;
      return up ? [up[2] - at] : [];
    });
    assert.ok(downs.length >= 'hello world'.length && holds.length >= 'hello world'.length, `${downs.length} keys, ${holds.length} held`);
    assert.ok(holds.every((hold) => hold >= 20), `each key is held: ${holds.map(Math.round)}`);
    // A renderer busy on a loaded machine can set the pace of the downs (it answers each key in turn); the holds between a key's down and up are ours either way.
    assert.ok(Math.max(stdev(keyGaps), stdev(holds)) > 10, `key timing varies: gaps ${keyGaps.map(Math.round)}, holds ${holds.map(Math.round)}`);
    assert.ok(upstream.clicks[0]![2] <= 2, 'the upstream jumps straight to the element');
  });

  test("fill_form's checkbox is reached by a pointer path too (the upstream: one jump)", () => {
    const movesBefore = (probe: Probe) => {
      const at = probe.clicks.findIndex((c) => c[4] === 'consent');
      assert.ok(at > 0, `the checkbox was clicked: ${JSON.stringify(probe.clicks)}`);
      return probe.clicks[at]![2] - probe.clicks[at - 1]![2];
    };
    assert.ok(movesBefore(ours) >= 8, `${movesBefore(ours)} pointer moves before the checkbox click`);
    assert.ok(movesBefore(upstream) <= 2, 'the upstream jumps straight to the checkbox');
  });
});

test('--console-capture=false without the quiet runtime is refused with the reason', async () => {
  const withoutQuiet = await runCli(['--console-capture=false', '--quiet-runtime=false'], testEnv('/tmp'));
  assert.equal(withoutQuiet.code, 2);
  assert.match(withoutQuiet.stderr, /--console-capture \(STEALTH_PLAYWRIGHT_MCP_CONSOLE_CAPTURE\) is false, but --quiet-runtime is false.*Fix:/);
  const playwrightEngine = await runCli(['--console-capture=false', '--browser-engine', 'playwright'], testEnv('/tmp'));
  assert.equal(playwrightEngine.code, 2);
  assert.match(playwrightEngine.stderr, /--browser-engine is playwright.*Fix:/);
});
