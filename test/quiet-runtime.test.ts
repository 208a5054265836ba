import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { connect, testEnv, textOf, type Connected, closeAll } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// With --quiet-runtime (the default) Playwright learns execution contexts and
// console messages from the shim's syncs instead of a Runtime domain left on.
// What depends on that, driven the same way on our server and on the upstream
// CLI in the same run: a binding exposed before navigations (Runtime.disable
// forgets bindings for documents to come), an out-of-process iframe
// (localhost inside a 127.0.0.1 page), console messages with their
// locations, and script run right after each navigation.

// A dedicated worker's console messages and uncaught error reach the page's console list.
const WORKER = `console.log('worker started', 7); postMessage('ready');
onmessage = (e) => { console.info('worker got', e.data); setTimeout(() => postMessage('pong'), 0); throw new Error('worker boom'); };`;
const WORKERS_PAGE = `<title>workers</title><button onclick="w.postMessage('ping')">Ping</button><p id="out">waiting</p>
<script>const w = new Worker('/worker.js'); w.onmessage = (e) => { document.getElementById('out').textContent = 'worker ' + e.data; };</script>`;

// Logs all the time, and its snapshot takes a while: a console read right after a snapshot sees messages its flush did not.
const TICKING_PAGE = `<title>ticking</title><ul>${'<li><a href="#">item</a> text</li>'.repeat(1500)}</ul><script>let n = 0; setInterval(() => console.log('tick', ++n), 5)</script>`;

// Objects logged at load and errors thrown just after: a replay describes objects without previews,
// and what a page logs while a sync ends must not be discarded unread.
const LATE_ERRORS_PAGE = `<title>late errors</title><script>console.log('state', {a: 1, b: 'two'}, [1, 2]); console.table([{a: 1}]);
Promise.reject(new Error('rejected at load')); for (const ms of [5, 15, 40]) setTimeout(() => { throw new TypeError('thrown after ' + ms + ' ms'); }, ms);</script>`;

// Logs every 2 ms (an object every 10th, an uncaught error every 25th) while the agent works: every sync races it.
const CHATTY_PAGE = `<title>chatty</title><button onclick="document.title = 'clicked ' + n">Click</button><script>let n = 0;
setInterval(() => { n++; if (n % 10) console.log('tick', n); else console.log('tick', n, {n}); if (n % 25 === 0) { const k = n; setTimeout(() => { throw new Error('boom ' + k); }); } }, 2);</script>`;

// console.count() at each click: V8 keeps its counters with the stored messages; a sync must not reset them.
const COUNTING_PAGE = `<title>counting</title><button onclick="console.count('clicks'); console.log('clicked', {k: 1})">Count</button><script>console.count('load')</script>`;

// Logs, then keeps its renderer busy while its out-of-process iframe loads and logs: the frame's
// renderer is synced first, the page's only once its loop ends. The frame's page is served 300 ms
// late, so the outer has logged by then even on a loaded machine (served at once, the frame once
// logged first, and the upstream listed it first).
const BUSY_OUTER_PAGE = (port: number) => `<title>busy outer</title><iframe src="http://localhost:${port}/inner?late"></iframe>
<script>setTimeout(() => { console.log('outer first'); const end = Date.now() + 1500; while (Date.now() < end); }, 50)</script>`;

const INNER_PAGE = `<title>inner</title><button onclick="console.warn('inner clicked')">Inner</button><script>console.log('inner loaded')</script>`;

// Objects logged around a message of megabytes: the replay of that message alone takes longer than
// a preview may wait once asked for (their previews used to time out while it arrived: "Object").
const BULKY_PAGE = `<title>bulky</title><script>console.log('before', {a: 1}); console.log('long', 'y'.repeat(5e6)); console.log('after', {b: [2, 3]});</script>`;

/** The ticks one console read lists, in order. */
const ticksIn = (read: string) => [...read.matchAll(/\[LOG\] tick (\d+)/g)].map((m) => Number(m[1]));

function startSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    res.setHeader('content-type', 'text/html');
    if (req.url === '/inner?late') return void setTimeout(() => res.end(INNER_PAGE), 300);
    if (req.url === '/inner') return res.end(INNER_PAGE);
    if (req.url === '/worker.js') return res.setHeader('content-type', 'text/javascript').end(WORKER);
    if (req.url === '/workers') return res.end(WORKERS_PAGE);
    if (req.url === '/ticking') return res.end(TICKING_PAGE);
    if (req.url === '/late-errors') return res.end(LATE_ERRORS_PAGE);
    if (req.url === '/chatty') return res.end(CHATTY_PAGE);
    if (req.url === '/counting') return res.end(COUNTING_PAGE);
    if (req.url === '/bulky') return res.end(BULKY_PAGE);
    if (req.url === '/busy-outer') return res.end(BUSY_OUTER_PAGE(port));
    if (req.url === '/second') return res.end(`<title>second</title><p id="p">second page</p><script>console.error('second loaded')</script>`);
    res.end(`<title>outer</title><h1>Outer</h1><iframe src="http://localhost:${port}/inner"></iframe><script>console.log('outer loaded', 42)</script>`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
    }),
  );
}

async function drive(client: Client, site: string): Promise<string[]> {
  const out: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    const text = textOf(result).replaceAll(site, 'SITE').replace(/localhost:\d+/g, 'localhost:PORT');
    out.push(`${name} error=${!!result.isError}\n${text.replace(/\]\([^)]*\)/g, '](FILE)').replace(/\S*spm-quiet-[^/]+\/(ours|upstream)\/console-[^#\s)]*/g, 'console-FILE')}`);
    return text;
  };
  const snapshot = await call('browser_navigate', { url: `${site}/` });
  const inner = (await call('browser_snapshot')).match(/button "Inner" \[ref=([a-z0-9]+)\]/)?.[1] ?? 'missing';
  void snapshot;
  await call('browser_click', { target: inner, element: 'Inner' });
  await call('browser_console_messages', { level: 'debug' });
  await call('browser_run_code_unsafe', {
    code: `async (page) => { await page.exposeFunction('twice', (n) => n * 2); const before = await page.evaluate(() => window.twice(2)); await page.goto('${site}/second'); const after = await page.evaluate(() => window.twice(21)); await page.goBack(); const back = await page.evaluate(() => window.twice(5)); return [before, after, back]; }`,
  });
  await call('browser_evaluate', { function: '() => document.title + " " + frames.length' });
  await call('browser_navigate', { url: `${site}/second` });
  await call('browser_evaluate', { function: '() => document.getElementById("p").textContent' });
  await call('browser_console_messages', { level: 'debug' });
  return out;
}

/** Only the last read is compared: when a worker's message lands relative to the results before it is timing. */
async function driveWorker(client: Client, site: string): Promise<string> {
  const call = async (name: string, args: Record<string, unknown> = {}) => textOf(await client.callTool({ name, arguments: args }));
  await call('browser_navigate', { url: `${site}/workers` });
  await call('browser_wait_for', { text: 'worker ready' });
  const snapshot = await call('browser_snapshot');
  await call('browser_click', { target: snapshot.match(/button "Ping" \[ref=([a-z0-9]+)\]/)?.[1] ?? 'missing', element: 'Ping' });
  await call('browser_wait_for', { text: 'worker pong' });
  // Script in the worker runs in the context the sync reported.
  const inWorker = await call('browser_run_code_unsafe', { code: 'async (page) => { const [worker] = page.workers(); return worker ? await worker.evaluate(() => [typeof importScripts, self.location.pathname, 6 * 7]) : "no worker"; }' });
  return (inWorker.match(/### Result\n[^\n]*/)?.[0] ?? inWorker) + '\n' + (await call('browser_console_messages', { level: 'debug' })).replaceAll(site, 'SITE').replace(/\S*spm-quiet-[^/]+\/(ours|upstream)\/console-[^#\s)]*/g, 'console-FILE');
}

async function driveLateErrors(client: Client, site: string): Promise<string> {
  await client.callTool({ name: 'browser_navigate', arguments: { url: `${site}/late-errors` } });
  await client.callTool({ name: 'browser_wait_for', arguments: { time: 1 } });
  return textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } })).replaceAll(site, 'SITE');
}

/** The lines of a console read that log an object (the long one left out: ours cuts results at --max-result-chars). */
async function driveBulky(client: Client, site: string): Promise<string[]> {
  await client.callTool({ name: 'browser_navigate', arguments: { url: `${site}/bulky` } });
  const read = textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } }));
  return read.split('\n').filter((line) => /^\[LOG\] (before|after) /.test(line)).map((line) => line.replace(site, 'SITE'));
}

// Code of the user's own that listens to the page: a console message its evaluate logs, a page
// error thrown after it, messages logged over time. With the domain off these reached Playwright at the
// next sync only, and the waits ran out (10 s) where the upstream's heard them at once.
const LISTENING_CODE = [
  `async (page) => { const [msg] = await Promise.all([page.waitForEvent('console', { timeout: 10000 }), page.evaluate(() => console.log('hi', 42))]); return msg.text(); }`,
  `async (page) => { const [err] = await Promise.all([page.waitForEvent('pageerror', { timeout: 10000 }), page.evaluate(() => { setTimeout(() => { throw new Error('late boom'); }, 10); })]); return err.message; }`,
  `async (page) => { const msgs = []; page.on('console', (m) => msgs.push(m.text())); await page.evaluate(() => new Promise((r) => { let n = 0; const t = setInterval(() => { console.log('tick ' + n); if (++n === 3) { clearInterval(t); r(); } }, 100); })); await page.waitForTimeout(300); return msgs; }`,
  // setContent waits for a console message of its own (set-content-tag.ts), which no list shows.
  `async (page) => { await page.setContent('<title>set</title><p>set content</p>', { timeout: 10000 }); return await page.title(); }`,
];

async function driveListeners(client: Client): Promise<string[]> {
  await client.callTool({ name: 'browser_navigate', arguments: { url: 'about:blank' } });
  const out: string[] = [];
  for (const code of LISTENING_CODE) out.push(textOf(await client.callTool({ name: 'browser_run_code_unsafe', arguments: { code } })).match(/### (Result|Error)\n[^\n]*/)?.[0] ?? 'no result');
  // The console API's messages (a page error thrown by the agent's own evaluate reads otherwise on ours: its stack stays out of the page's reach).
  const listed = textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } }));
  out.push(listed.split('\n').filter((line) => line.startsWith('[')).join('\n'));
  return out;
}

async function driveCounting(client: Client, site: string): Promise<string> {
  await client.callTool({ name: 'browser_navigate', arguments: { url: `${site}/counting` } });
  for (let i = 0; i < 3; i++) {
    const ref = textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} })).match(/button "Count"[^\n]*\[ref=(\w+)\]/)?.[1];
    await client.callTool({ name: 'browser_click', arguments: { target: ref ?? 'missing', element: 'Count' } });
  }
  return textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } })).replaceAll(site, 'SITE');
}

describe('--quiet-runtime: what Playwright learns from Runtime events still works, as under the upstream CLI', () => {
  const dirs = useTempDir('spm-quiet-');
  let site: { url: string; close(): Promise<void> };
  const servers: Connected[] = [];
  let ours: string[];
  let upstream: string[];
  let oursWorker: string;
  let upstreamWorker: string;
  let oursLate: string;
  let upstreamLate: string;
  let oursCounting: string;
  let upstreamCounting: string;
  let oursBulky: string[];
  let upstreamBulky: string[];
  let oursListeners: string[];
  let upstreamListeners: string[];
  before(async () => {
    site = await startSite();
    // A cache of its own: the probe of whether the driver hears console messages runs under the shim.
    const a = await connect(testEnv(`${dirs.path}/ours`, { STEALTH_PLAYWRIGHT_MCP_HUMANIZE: 'false', XDG_CACHE_HOME: `${dirs.path}/cache` }));
    const b = await connectUpstream(`${dirs.path}/upstream`);
    servers.push(a, b);
    ours = await drive(a.client, site.url);
    upstream = await drive(b.client, site.url);
    oursWorker = await driveWorker(a.client, site.url);
    upstreamWorker = await driveWorker(b.client, site.url);
    oursLate = await driveLateErrors(a.client, site.url);
    upstreamLate = await driveLateErrors(b.client, site.url);
    oursCounting = await driveCounting(a.client, site.url);
    upstreamCounting = await driveCounting(b.client, site.url);
    oursBulky = await driveBulky(a.client, site.url);
    upstreamBulky = await driveBulky(b.client, site.url);
    oursListeners = await driveListeners(a.client);
    upstreamListeners = await driveListeners(b.client);
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test('every call reads the same (bindings across navigations, the out-of-process iframe, console locations)', () => {
    const diffs = ours.map((text, i) => (text === upstream[i] ? null : `#${i}\n--- upstream\n${upstream[i]}\n--- ours\n${text}`)).filter(Boolean);
    assert.deepEqual(diffs, []);
    const all = ours.join('\n');
    assert.match(all, /\[4,42,10\]/, 'the exposed function answers before, after and back from a navigation');
    assert.match(all, /\[LOG\] inner loaded @ http:\/\/localhost:PORT\/inner:\d+/, 'the out-of-process frame\'s message, with its location');
    assert.match(all, /\[WARNING\] inner clicked/);
    assert.match(all, /\[ERROR\] second loaded @ SITE\/second:\d+/);
  });

  test("a dedicated worker's console messages and uncaught error are listed as under the upstream CLI (its Runtime domain is kept off too)", () => {
    assert.equal(oursWorker, upstreamWorker);
    assert.match(oursWorker, /\["function","\/worker\.js",42\]/, 'script runs in the worker');
    assert.match(oursWorker, /worker started 7/);
    assert.match(oursWorker, /worker got ping/);
    assert.match(oursWorker, /worker boom/);
  });

  test('objects logged at load read with their contents, and errors thrown just after it are all listed, as under the upstream CLI', () => {
    assert.equal(oursLate, upstreamLate);
    assert.match(oursLate, /\[LOG\] state \{a: 1, b: two\} \[1, 2\]/);
    assert.match(oursLate, /\[TABLE\] \[Object\]/);
    for (const text of ['rejected at load', 'thrown after 5 ms', 'thrown after 15 ms', 'thrown after 40 ms']) assert.match(oursLate, new RegExp(text));
  });

  test('objects logged around a message of megabytes read with their contents, as under the upstream CLI', () => {
    assert.deepEqual(oursBulky, upstreamBulky);
    assert.equal(oursBulky.length, 2, oursBulky.join('\n'));
    assert.match(oursBulky[0]!, /^\[LOG\] before \{a: 1\}/);
    assert.match(oursBulky[1]!, /^\[LOG\] after \{b: Array\(2\)\}|^\[LOG\] after \{b: \[2, 3\]\}/);
  });

  test("browser_run_code_unsafe's console and page-error listeners hear the page as under the upstream CLI (a wait for a message its evaluate logs, an error thrown after it, messages over time, page.setContent)", () => {
    assert.deepEqual(oursListeners, upstreamListeners);
    assert.deepEqual(oursListeners.slice(0, 4), ['### Result\n"hi 42"', '### Result\n"late boom"', '### Result\n["tick 0","tick 1","tick 2"]', '### Result\n"set"']);
    assert.doesNotMatch(oursListeners[4]!, /set--content/);
  });

  test('console.count() keeps counting across the reads in between, as under the upstream CLI', () => {
    assert.equal(oursCounting, upstreamCounting);
    assert.deepEqual([...oursCounting.matchAll(/\[COUNT\] clicks: (\d+)/g)].map((m) => m[1]), ['1', '2', '3'], oursCounting);
    assert.match(oursCounting, /\[LOG\] clicked \{k: 1\}/);
  });

  test('a page that logs all the time: each read lists every message once, in order, with no gap', async (t) => {
    const { client } = servers[0]!;
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/chatty` } });
    const reads: string[] = [];
    for (let i = 0; i < 6; i++) {
      const ref = textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} })).match(/button "Click" \[ref=(\w+)\]/)?.[1];
      await client.callTool({ name: 'browser_click', arguments: { target: ref ?? 'missing', element: 'Click' } });
      reads.push(textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } })));
    }
    for (const read of reads) {
      const ticks = ticksIn(read);
      assert.ok(ticks.length > 50, read.slice(0, 300));
      const expected = Array.from({ length: ticks.at(-1)! - ticks[0]! + 1 }, (_, i) => ticks[0]! + i);
      assert.deepEqual(ticks, expected, 'ticks listed once each, none missing');
      const errors = [...read.matchAll(/Error: boom (\d+)/g)].map((m) => Number(m[1]));
      assert.equal(new Set(errors).size, errors.length, 'each uncaught error once');
      for (let k = Math.ceil(ticks[0]! / 25) * 25; k <= ticks.at(-1)! - 25; k += 25) assert.ok(errors.includes(k), `boom ${k} listed`);
    }
    // Each logged object once, however many reads list it (the first reads' would count up to six times).
    const objects = new Map(reads.flatMap((read) => [...read.matchAll(/\[LOG\] tick (\d+) (\{n: \d+\}|Object)/g)].map((m) => [m[1]!, m[2]!] as const)));
    const described = [...objects.values()].filter((o) => o !== 'Object').length;
    t.diagnostic(`objects read with their contents: ${described} of ${objects.size}`);
    // A call logged while a sync's discarding pass runs keeps the replay's description: a few, never most.
    assert.ok(described >= objects.size * 0.8, `objects with their contents: ${[...objects].map(([n, o]) => `${n}:${o}`).join(' ')}`);
  });

  test('messages of a page and its out-of-process iframe are listed in the order they were logged, as under the upstream CLI, whichever renderer answers first', async () => {
    const reads = await Promise.all(
      servers.map(async ({ client }) => {
        await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/busy-outer` } });
        await client.callTool({ name: 'browser_wait_for', arguments: { time: 1 } });
        return textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } })).replaceAll(site.url, 'SITE').replace(/localhost:\d+/g, 'localhost:PORT');
      }),
    );
    const [ours, upstream] = reads as [string, string];
    assert.match(upstream, /outer first[^]*inner loaded/, upstream);
    assert.equal(ours, upstream);
  });

  // The upstream reads a live list, so a message landing between its two reads can make them differ
  // by one; ours read one flush, so they agree (they differed by everything since the last snapshot).
  test('browser_console_messages right after a snapshot counts the messages it lists (the header and the list read one flush)', async () => {
    const { client } = servers[0]!;
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ticking` } });
    const reads: string[] = [];
    for (let i = 0; i < 4; i++) {
      await client.callTool({ name: 'browser_snapshot', arguments: {} });
      reads.push(textOf(await client.callTool({ name: 'browser_console_messages', arguments: { level: 'debug' } })).split('\n### Page')[0]!);
    }
    for (const read of reads) {
      const total = Number(read.match(/Total messages: (\d+)/)?.[1]);
      assert.ok(total > 0, read);
      assert.equal(read.match(/\[LOG\] tick/g)?.length, total, read.slice(0, 300));
    }
  });

  test('the Runtime domain was kept off: stealth_bridge_info counts the syncs that stood in for it; no in-page recorder on a build that reports console', async () => {
    const info = (await servers[0]!.client.callTool({ name: 'stealth_bridge_info', arguments: {} })).structuredContent as {
      session: { launch: { quietRuntime: { syncs: number; contextsCreated: number } | null; consoleFallbackActive: boolean | null } };
    };
    const quiet = info.session.launch.quietRuntime;
    assert.ok(quiet && quiet.syncs > 0 && quiet.contextsCreated > 0, JSON.stringify(quiet));
    // Stock Chromium reports console messages: the shim's flush lets the probe hear it, so no in-page recorder.
    assert.equal(info.session.launch.consoleFallbackActive, false);
  });
});
