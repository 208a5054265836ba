import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { useTempDir } from './helpers/fixtures.ts';
import { waitFor } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { Reports, startedByHand, unautomated } from './helpers/unautomated.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A user's Chrome blocks a window a script opens with no input behind it
// (window.open returns null), and gives a click one window however many its
// handler asks for. Playwright launches with --disable-popup-blocking: a page
// can count the windows it gets, and a click's loop of window.open floods the
// session with tabs. Chromium with its own defaults is the yardstick; the
// upstream CLI, with Playwright's, is reported.
const TIMER_PAGE = `<!doctype html><title>timer</title><script>
  setTimeout(() => { const w = window.open('about:blank'); fetch('/report', { method: 'POST', body: w ? 'window' : 'null' }); w?.close(); }, 100);
</script>`;
// The same from a frame of another site, which Chromium runs in a process of its own.
const FRAME_PAGE = `<!doctype html><title>frame</title><script>
  setTimeout(() => { const w = window.open('/from-frame'); fetch('/report', { method: 'POST', body: w ? 'window' : 'null' }); w?.close(); }, 300);
</script>`;
// Two pages whose timers fire while one later call runs (A's after 4 s, B's after 2 s).
const lateWindow = (ms: number, to: string) => `<!doctype html><title>late</title><script>setTimeout(() => window.open('${to}'), ${ms});</script>`;
const CLICK_PAGE = `<!doctype html><title>click</title><button onclick="let n = 0; for (let i = 0; i < 5; i++) if (window.open('/opened?' + i)) n++; fetch('/report', { method: 'POST', body: String(n) })">Open five</button>`;

let site: http.Server;
let origin: string;
const reports = new Reports();
const servers: Connected[] = [];
const dirs = useTempDir('spm-popups-');

before(async () => {
  site = http.createServer((req, res) => {
    if (reports.take(req, res)) return;
    const framed = `<!doctype html><title>framed</title><iframe src="${origin.replace('127.0.0.1', 'localhost')}/frame"></iframe>`;
    const late = { '/late-a': lateWindow(4000, '/from-a'), '/late-b': lateWindow(2000, '/from-b') };
    const body = { '/timer': TIMER_PAGE, '/click': CLICK_PAGE, '/frame': FRAME_PAGE, '/framed': framed, ...late }[req.url ?? ''] ?? '<!doctype html><title>opened</title>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(async () => {
  await closeAll(servers);
  site?.close();
});

/** The click page in a Chromium started by hand with its own defaults, clicked once over DevTools (trusted input, as a mouse gives). */
async function clickedByHand(profileDir: string): Promise<string> {
  const browser = startedByHand(['--remote-debugging-port=0', 'about:blank'], profileDir);
  try {
    const portFile = `${profileDir}/DevToolsActivePort`;
    assert.ok(await waitFor(() => fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').includes('\n'), 20_000), 'the hand-started Chromium opened its DevTools port');
    const driven = await chromium.connectOverCDP(`http://127.0.0.1:${fs.readFileSync(portFile, 'utf8').split('\n')[0]}`);
    const page = driven.contexts()[0]!.pages()[0]!;
    await page.goto(`${origin}/click`);
    const seen = reports.next(20_000);
    await page.click('button');
    return await seen;
  } finally {
    browser.kill();
  }
}

/** The page's report, and what the calls answered (a tab list after the report, for a note that came late). */
async function viaMcp(server: Connected, path: string, click?: string): Promise<{ report: string; said: string }> {
  servers.push(server);
  const said: string[] = [];
  const call = async (name: string, args: Record<string, unknown>) => said[said.push(textOf(await server.client.callTool({ name, arguments: args }))) - 1]!;
  const seen = reports.next(20_000);
  await call('browser_navigate', { url: `${origin}${path}` });
  if (click) {
    const ref = (await call('browser_snapshot', {})).match(new RegExp(`button "${click}" \\[ref=([a-z0-9]+)\\]`))![1]!;
    await call('browser_click', { target: ref, element: click });
  }
  const report = await seen;
  await call('browser_tabs', { action: 'list' });
  return { report, said: said.join('\n') };
}

const BLOCKED_NOTE = /Note: \S+ tried to open (a window|\d+ windows) \(([^)]*)\); Chromium's popup blocker refused (it|them), as a user's Chrome does: a page gets one window per click or key press, none without one\. To open one, use browser_tabs with action "new" and its url/g;

test('a window a script opens with no input is blocked as in an unautomated Chromium, and the agent is told (the upstream CLI reported alongside)', { timeout: 120_000 }, async (t) => {
  const control = await unautomated(`${origin}/timer`, `${dirs.path}/timer-control`, reports);
  const upstream = await viaMcp(await connectUpstream(`${dirs.path}/timer-upstream`), '/timer');
  const ours = await viaMcp(await connect(testEnv(`${dirs.path}/timer-ours`)), '/timer');
  t.diagnostic(`window.open from a timer returned: unautomated ${control}, upstream CLI ${upstream.report}, ours ${ours.report}`);
  assert.equal(control, 'null', 'the unautomated Chromium blocked it');
  assert.equal(ours.report, control);
  // The upstream opened it; ours says once what was refused and how to open it.
  assert.deepEqual([...ours.said.matchAll(BLOCKED_NOTE)].map((m) => [m[1], m[2]]), [['a window', 'about:blank']], ours.said);
  assert.doesNotMatch(upstream.said, BLOCKED_NOTE);
});

test('a click whose handler opens five windows gets one, as in a Chromium with its own defaults, and the agent is told of the four refused (the upstream CLI reported alongside)', { timeout: 120_000 }, async (t) => {
  const control = await clickedByHand(`${dirs.path}/click-control`);
  const upstream = await viaMcp(await connectUpstream(`${dirs.path}/click-upstream`), '/click', 'Open five');
  const ours = await viaMcp(await connect(testEnv(`${dirs.path}/click-ours`)), '/click', 'Open five');
  t.diagnostic(`windows opened by one click of five window.open calls: Chromium's defaults ${control}, upstream CLI ${upstream.report}, ours ${ours.report}`);
  assert.equal(control, '1', "Chromium's popup blocker gave the click one window");
  assert.equal(ours.report, control);
  const notes = [...ours.said.matchAll(BLOCKED_NOTE)];
  t.diagnostic(`ours said: ${notes[0]?.[0] ?? 'nothing'}`);
  assert.deepEqual(notes.map((m) => m[1]), ['4 windows'], ours.said);
  assert.equal(notes[0]![2], `${origin}/opened?1, ${origin}/opened?2, ${origin}/opened?3, …`, 'the first three named');
  assert.doesNotMatch(upstream.said, BLOCKED_NOTE);
});

test('a window a frame of another site opens with no input is blocked too, and the agent is told (the upstream CLI reported alongside)', { timeout: 120_000 }, async (t) => {
  const control = await unautomated(`${origin}/framed`, `${dirs.path}/frame-control`, reports);
  const upstream = await viaMcp(await connectUpstream(`${dirs.path}/frame-upstream`), '/framed');
  const ours = await viaMcp(await connect(testEnv(`${dirs.path}/frame-ours`)), '/framed');
  t.diagnostic(`window.open from a cross-site frame's timer returned: unautomated ${control}, upstream CLI ${upstream.report}, ours ${ours.report}`);
  assert.equal(control, 'null', 'the unautomated Chromium blocked it');
  assert.equal(ours.report, control);
  const notes = [...ours.said.matchAll(BLOCKED_NOTE)];
  t.diagnostic(`ours said: ${notes[0]?.[0] ?? 'nothing'}`);
  assert.deepEqual(notes.map((m) => [m[1], m[2]]), [['a window', `${origin.replace('127.0.0.1', 'localhost')}/from-frame`]], ours.said);
  assert.doesNotMatch(upstream.said, BLOCKED_NOTE);
});

test('windows refused to two pages during one call are each named with their page', { timeout: 120_000 }, async () => {
  const ours = await connect(testEnv(`${dirs.path}/two-pages-ours`));
  servers.push(ours);
  const said: string[] = [];
  for (const [name, args] of [
    ['browser_navigate', { url: `${origin}/late-a` }],
    ['browser_tabs', { action: 'new', url: `${origin}/late-b` }],
    ['browser_wait_for', { time: 6 }],
  ] as const)
    said.push(textOf(await ours.client.callTool({ name, arguments: args })));
  const waited = said[2]!;
  assert.match(waited, new RegExp(`Note: (\\S+ tried to open a window \\(\\S+\\); ){2}Chromium's popup blocker refused them`), said.join('\n'));
  assert.ok(waited.includes(`${origin}/late-a tried to open a window (${origin}/from-a)`), waited);
  assert.ok(waited.includes(`${origin}/late-b tried to open a window (${origin}/from-b)`), waited);
});
