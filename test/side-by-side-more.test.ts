import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { differences, runSteps, type Step } from './helpers/side-by-side.ts';
import { startToolSite, type ToolSite } from './helpers/tool-site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// The tools side-by-side.test.ts leaves out (verify, find, highlight, drag
// and drop, the raw mouse, dialogs, offline, unroute, cookies, both storages,
// storage state, video, recording), sent to the upstream CLI and to our
// server with our defaults: humanised input, the quiet runtime, the settle
// wait in the server. Each result must read the same as the upstream's.
const CAPS = ['--caps', 'vision,pdf,devtools,network,storage,testing', '--allow-unrestricted-file-access'];
const evaluate = (fn: string): Step => ['browser_evaluate', () => ({ function: fn })];

const STEPS: Step[] = [
  ['browser_navigate', (s) => ({ url: `${s}/more` })],
  ['browser_snapshot', () => ({})],
  ['browser_find', () => ({ text: 'banana' })],
  ['browser_find', () => ({ regex: '/PRESS/i' })],
  ['browser_verify_element_visible', () => ({ role: 'button', accessibleName: 'Press' })],
  ['browser_verify_element_visible', () => ({ role: 'button', accessibleName: 'Nope' })],
  ['browser_verify_list_visible', (_s, _d, ref) => ({ element: 'Fruits', target: ref('list "Fruits"'), items: ['apple', 'banana'] })],
  ['browser_verify_value', (_s, _d, ref) => ({ type: 'textbox', element: 'Name', target: ref('textbox "Name"'), value: 'Ada' })],
  ['browser_verify_value', (_s, _d, ref) => ({ type: 'checkbox', element: 'Agree', target: ref('checkbox "Agree"'), value: 'false' })],
  ['browser_highlight', (_s, _d, ref) => ({ element: 'Press', target: ref('button "Press"') })],
  ['browser_hide_highlight', (_s, _d, ref) => ({ element: 'Press', target: ref('button "Press"') })],
  ['browser_drag', () => ({ startElement: 'Drag source', startTarget: '#src', endElement: 'Drop target', endTarget: '#dst' })],
  evaluate('() => document.getElementById("dst").textContent'),
  ['browser_drop', () => ({ element: 'Drop target', target: '#dst', data: { 'text/plain': 'hello' } })],
  evaluate('() => document.getElementById("dst").textContent'),
  ['browser_mouse_click_xy', () => ({ x: 50, y: 420 })],
  ['browser_mouse_move_xy', () => ({ x: 60, y: 430 })],
  ['browser_mouse_down', () => ({})],
  ['browser_mouse_up', () => ({})],
  ['browser_mouse_drag_xy', () => ({ startX: 20, startY: 420, endX: 120, endY: 450 })],
  evaluate('() => document.getElementById("log").textContent'),
  // Playwright's wheel returns before the page scrolls (on both sides): read after a pause.
  ['browser_mouse_wheel', () => ({ deltaX: 0, deltaY: 300 })],
  ['browser_wait_for', () => ({ time: 1 })],
  evaluate('() => Math.round(scrollY)'),
  ['browser_click', (_s, _d, ref) => ({ element: 'Alert', target: ref('button "Alert"') })],
  ['browser_handle_dialog', () => ({ accept: true })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Confirm', target: ref('button "Confirm"') })],
  ['browser_handle_dialog', () => ({ accept: false })],
  ['browser_network_state_set', () => ({ state: 'offline' })],
  evaluate('() => fetch("/api/data").then(() => "online", () => "offline")'),
  ['browser_network_state_set', () => ({ state: 'online' })],
  ['browser_route', () => ({ pattern: '**/api/teapot', status: 418, body: 'teapot' })],
  evaluate('() => fetch("/api/teapot").then((r) => r.status)'),
  ['browser_unroute', () => ({ pattern: '**/api/teapot' })],
  evaluate('() => fetch("/api/teapot").then((r) => r.status)'),
  ['browser_route_list', () => ({})],
  ['browser_cookie_set', () => ({ name: 'a', value: '1', domain: '127.0.0.1', path: '/' })],
  ['browser_cookie_get', () => ({ name: 'a' })],
  ['browser_cookie_delete', () => ({ name: 'a' })],
  ['browser_cookie_get', () => ({ name: 'a' })],
  ['browser_cookie_set', () => ({ name: 'b', value: '2', domain: '127.0.0.1', path: '/' })],
  ['browser_cookie_clear', () => ({})],
  ['browser_cookie_list', () => ({})],
  ['browser_localstorage_set', () => ({ key: 'x', value: 'y' })],
  ['browser_localstorage_get', () => ({ key: 'x' })],
  ['browser_localstorage_delete', () => ({ key: 'x' })],
  ['browser_localstorage_get', () => ({ key: 'x' })],
  ['browser_localstorage_set', () => ({ key: 'z', value: 'w' })],
  ['browser_localstorage_clear', () => ({})],
  ['browser_localstorage_list', () => ({})],
  ['browser_sessionstorage_set', () => ({ key: 's', value: 't' })],
  ['browser_sessionstorage_list', () => ({})],
  ['browser_sessionstorage_delete', () => ({ key: 's' })],
  ['browser_sessionstorage_clear', () => ({})],
  ['browser_sessionstorage_list', () => ({})],
  ['browser_localstorage_set', () => ({ key: 'keep', value: 'me' })],
  ['browser_storage_state', (_s, d) => ({ filename: path.join(d, 'state.json') })],
  ['browser_localstorage_clear', () => ({})],
  ['browser_set_storage_state', (_s, d) => ({ filename: path.join(d, 'state.json') })],
  ['browser_localstorage_list', () => ({})],
  // Humanised typing into a field that cancels every key still sets the text, as the upstream's fill does.
  ['browser_navigate', (s) => ({ url: `${s}/guarded` })],
  ['browser_snapshot', () => ({})],
  ['browser_type', (_s, _d, ref) => ({ element: 'Code', target: ref('textbox "Code"'), text: 'abc' })],
  evaluate('() => document.getElementById("code").value'),
  // Date, week, colour and range fields are set as fill sets them; text fields are typed and end as the upstream's.
  ['browser_navigate', (s) => ({ url: `${s}/fields` })],
  ['browser_snapshot', () => ({})],
  ...(
    [
      ['textbox "Day"', '2024-01-15'],
      ['textbox "Week"', '2024-W05'],
      ['textbox "Colour"', '#ff0000'],
      ['slider "Level"', '30'],
      ['spinbutton "Amount"', '42.5'],
      ['textbox "Short"', 'abcdef'],
      ['textbox "Loud"', 'shout'],
      // Enter would send this form: the line break goes into the value, as fill puts it.
      ['textbox "Note"', 'one\ntwo'],
    ] as const
  ).map(([label, text]): Step => ['browser_type', (_s, _d, ref) => ({ element: label, target: ref(label), text })]),
  evaluate('() => [...document.querySelectorAll("input, textarea")].map((e) => e.value).join(" ") + " " + document.title'),
  // What a call makes the page log is listed in that call's own result ("New console entries"), as the upstream lists it.
  ['browser_navigate', (s) => ({ url: `${s}/second` })],
  evaluate('() => { console.warn("from evaluate"); return 1; }'),
  evaluate('async () => { await new Promise((r) => setTimeout(r, 50)); console.log("later", {a: 1}); return 2; }'),
  ['browser_resume', () => ({})],
  ['browser_start_video', (_s, d) => ({ filename: path.join(d, 'v.webm') })],
  ['browser_video_chapter', () => ({ title: 'One' })],
  ['browser_stop_video', () => ({})],
  ['browser_start_recording', () => ({})],
  ['browser_stop_recording', () => ({})],
  // The remaining tools and the arguments left out above (one request's body, run_code, submit, slowly, modifiers, tabs by index…).
  ['browser_navigate', (s) => ({ url: `${s}/network` })],
  ['browser_network_request', () => ({ index: 2, part: 'response-body' })],
  ['browser_network_request', () => ({ index: 99 })],
  ['browser_run_code_unsafe', () => ({ code: 'async (page) => await page.title()' })],
  ['browser_navigate', (s) => ({ url: `${s}/form` })],
  ['browser_snapshot', () => ({})],
  ['browser_type', (_s, _d, ref) => ({ element: 'Name', target: ref('textbox "Name"'), text: 'Bob', submit: true })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Name', target: ref('textbox "Name"'), text: 'Al', slowly: true })],
  ['browser_evaluate', (_s, _d, ref) => ({ element: 'Name', target: ref('textbox "Name"'), function: '(e) => e.value + " " + document.getElementById("out").textContent' })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Agree', target: ref('checkbox "Agree"'), modifiers: ['Shift'] })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Send', target: ref('button "Send"'), button: 'right' })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Hover me', target: ref('button "Hover me"'), doubleClick: true })],
  ['browser_press_key', () => ({ key: 'Tab' })],
  ['browser_press_key', () => ({ key: 'NotAKey' })],
  ['browser_select_option', (_s, _d, ref) => ({ element: 'Color', target: ref('combobox "Color"'), values: ['purple'] })],
  ['browser_take_screenshot', (_s, d) => ({ filename: path.join(d, 'full.png'), fullPage: true })],
  ['browser_take_screenshot', (_s, _d, ref) => ({ element: 'Send', target: ref('button "Send"'), type: 'jpeg' })],
  ['browser_wait_for', () => ({ text: 'sent Bob' })],
  ['browser_wait_for', () => ({ textGone: 'never there' })],
  ['browser_tabs', () => ({ action: 'new', url: 'about:blank' })],
  ['browser_tabs', () => ({ action: 'select', index: 0 })],
  ['browser_tabs', () => ({ action: 'close', index: 1 })],
  ['browser_navigate_back', () => ({})],
  // Fields whose value keys do not spell, typed slowly: a date field's segments, a slider (digit keys move none).
  ['browser_navigate', (s) => ({ url: `${s}/when` })],
  ['browser_snapshot', () => ({})],
  ['browser_type', (_s, _d, ref) => ({ element: 'Clock', target: ref('textbox "Clock"'), text: '13:45', slowly: true })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Day', target: ref('textbox "Day"'), text: '02012024', slowly: true })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Level', target: ref('slider "Level"'), text: '70', slowly: true })],
  evaluate('() => [clock.value, day.value, level.value].join(" ")'),
  ['browser_click', (_s, _d, ref) => ({ element: 'Level', target: ref('slider "Level"') })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Note', target: ref('textbox "Note"') })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Note', target: ref('textbox "Note"'), text: '!', slowly: true })],
  evaluate('() => [level.value, note.value].join(" ")'),
  ...Array.from({ length: 4 }, (): Step => ['browser_click', () => ({ element: 'Tag', target: '#chip' })]),
  evaluate('() => chipLog.join(" ")'),
  ['browser_console_messages', () => ({ level: 'error', all: true })],
];

describe('side by side with the upstream CLI, our defaults on: the rest of the tools read the same', () => {
  const dirs = useTempDir('spm-sbs2-');
  let site: ToolSite;
  const servers: Connected[] = [];
  let upstream: string[];
  let ours: string[];
  before(async () => {
    site = await startToolSite();
    const [upstreamDir, oursDir] = ['upstream', 'ours'].map((name) => path.join(dirs.path, name)) as [string, string];
    for (const d of [upstreamDir, oursDir]) fs.mkdirSync(d, { recursive: true });
    const a = await connectUpstream(upstreamDir, CAPS);
    servers.push(a);
    upstream = await runSteps(a.client, STEPS, site.url, upstreamDir);
    const b = await connect(testEnv(oursDir), [...CAPS, '--output-dir', oursDir]);
    servers.push(b);
    ours = await runSteps(b.client, STEPS, site.url, oursDir);
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test('every call gives the same result text (normalised)', () => {
    assert.deepEqual(differences(STEPS, upstream, ours), []);
  });

  // The call log's retry counts depend on timing: the error's first line is what must match.
  test('a humanised click that fails reads as the upstream\'s: the same error, named after the same call', async () => {
    const firstLines: string[] = [];
    for (const { client } of servers) {
      await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/guarded` } });
      const snapshot = textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} }));
      const target = snapshot.match(/button "Covered" \[ref=([a-z0-9]+)\]/)?.[1] ?? 'missing';
      const result = await client.callTool({ name: 'browser_click', arguments: { element: 'Covered', target } });
      assert.equal(result.isError, true);
      firstLines.push(textOf(result).split('\n').slice(0, 3).join('\n'));
    }
    assert.equal(firstLines[1], firstLines[0]);
    assert.match(firstLines[0]!, /Timeout \d+ms exceeded/);
  });

  test("a call's own console messages are linked from its result, as the upstream links them", () => {
    const own = (side: string[]) => side.filter((r) => /### Result\n[12]\n/.test(r) && r.startsWith('browser_evaluate')).map((r) => /New console entries: \S+/.test(r));
    assert.deepEqual(own(upstream), [true, true]);
    assert.deepEqual(own(ours), [true, true]);
  });

  test('the page saw the same actions: drag, drop, raw mouse, wheel, dialogs, offline and routes took effect, slow typing reached a time, a date and a slider as the upstream\'s, a click set a slider and a caret and opened a chip (not its remove button) where the upstream\'s does', () => {
    const results = (side: string[]) => side.filter((r) => r.startsWith('browser_evaluate')).map((r) => /### Result\n(.*)/.exec(r)?.[1]);
    assert.deepEqual(results(ours), ['"dropped x"', '"dropped hello"', '"pad 1"', '300', '"offline"', '418', '200', '"abc"', '"2024-01-15 2024-W05 #ff0000 30 42.5 abc SHOUT one\\ntwo Fields"', '1', '2', '"BobAl sent Bob red false"', '"13:45 2024-02-01 20"', '"50 hello world!"', '"opened opened opened opened"']);
    assert.deepEqual(results(upstream), results(ours));
  });
});
