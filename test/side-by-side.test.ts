import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { connect, testEnv, type Connected, closeAll } from './helpers/server.ts';
import { differences, runSteps, type Step } from './helpers/side-by-side.ts';
import { startToolSite, type ToolSite } from './helpers/tool-site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// The same MCP call sequence, every capability on, sent to the upstream CLI
// and to our server (stdio, default settings: humanised input, the quiet
// runtime; Debian Chromium): results must
// read the same after ids, ports, paths and times are normalised. Differences
// that remain are listed in docs/playwright-mcp-compat.md with their reason.
const CAPS = ['--caps', 'vision,pdf,devtools,network,storage,testing'];

const STEPS: Step[] = [
  ['browser_navigate', (s) => ({ url: `${s}/form` })],
  ['browser_snapshot', () => ({})],
  ['browser_type', (_s, _d, ref) => ({ target: ref('textbox "Name"'), element: 'Name', text: 'Ada' })],
  ['browser_select_option', (_s, _d, ref) => ({ target: ref('combobox "Color"'), element: 'Color', values: ['green'] })],
  ['browser_click', (_s, _d, ref) => ({ target: ref('checkbox "Agree"'), element: 'Agree' })],
  ['browser_click', (_s, _d, ref) => ({ target: ref('button "Send"'), element: 'Send' })],
  ['browser_verify_text_visible', () => ({ text: 'sent Ada green true' })],
  ['browser_hover', (_s, _d, ref) => ({ target: ref('button "Hover me"'), element: 'Hover me' })],
  ['browser_fill_form', (_s, _d, ref) => ({ fields: [{ name: 'Name', type: 'textbox', target: ref('textbox "Name"'), value: 'Grace' }] })],
  ['browser_press_key', () => ({ key: 'Tab' })],
  ['browser_snapshot', () => ({})],
  ['browser_generate_locator', (_s, _d, ref) => ({ target: ref('button "Send"'), element: 'Send' })],
  ['browser_navigate', (s) => ({ url: `${s}/tabs` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ target: ref('link "Open second"'), element: 'Open second' })],
  ['browser_tabs', () => ({ action: 'list' })],
  ['browser_tabs', () => ({ action: 'select', index: 0 })],
  ['browser_tabs', () => ({ action: 'close', index: 1 })],
  ['browser_tabs', () => ({ action: 'new', url: 'about:blank' })],
  ['browser_tabs', () => ({ action: 'close' })],
  ['browser_navigate', (s) => ({ url: `${s}/upload` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ target: ref('button "File"'), element: 'File' })],
  ['browser_file_upload', (_s, dir) => ({ paths: [path.join(dir, 'upload.txt')] })],
  ['browser_navigate', (s) => ({ url: `${s}/network` })],
  ['browser_wait_for', () => ({ text: 'Network 42' })],
  ['browser_network_requests', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/console` })],
  ['browser_console_messages', () => ({ level: 'debug' })],
  ['browser_navigate', (s) => ({ url: `${s}/storage` })],
  ['browser_localstorage_list', () => ({})],
  ['browser_sessionstorage_get', () => ({ key: 's' })],
  ['browser_cookie_list', () => ({})],
  ['browser_evaluate', () => ({ function: '() => document.title' })],
  ['browser_emulate_media', () => ({ colorScheme: 'dark' })],
  ['browser_resize', () => ({ width: 900, height: 700 })],
  ['browser_mouse_move_xy', () => ({ x: 10, y: 10 })],
  ['browser_take_screenshot', (_s, dir) => ({ filename: path.join(dir, 'shot.png') })],
  ['browser_pdf_save', (_s, dir) => ({ filename: path.join(dir, 'page.pdf') })],
  ['browser_start_tracing', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/second` })],
  ['browser_stop_tracing', () => ({})],
  ['browser_navigate_back', () => ({})],
  ['browser_route', () => ({ pattern: '**/blocked', status: 404 })],
  ['browser_route_list', () => ({})],
  ['browser_close', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/second` })],
];

describe('side by side with the upstream CLI: the same calls read the same', () => {
  const dirs = useTempDir('spm-sbs-');
  let site: ToolSite;
  const servers: Connected[] = [];
  let upstream: string[];
  let ours: string[];
  let upstreamDir: string;
  let oursDir: string;
  before(async () => {
    site = await startToolSite();
    upstreamDir = path.join(dirs.path, 'upstream');
    oursDir = path.join(dirs.path, 'ours');
    for (const d of [upstreamDir, oursDir]) {
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'upload.txt'), 'upload me\n');
    }
    const a = await connectUpstream(upstreamDir, [...CAPS, '--allow-unrestricted-file-access']);
    const b = await connect(testEnv(oursDir), [...CAPS, '--allow-unrestricted-file-access', '--output-dir', oursDir]);
    servers.push(a, b);
    upstream = await runSteps(a.client, STEPS, site.url, upstreamDir);
    ours = await runSteps(b.client, STEPS, site.url, oursDir);
    if (process.env.STEALTH_TEST_SHOW_SIDE_BY_SIDE) process.stderr.write(ours.join('\n=====\n'));
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test('every call gives the same result text (normalised)', () => {
    assert.deepEqual(differences(STEPS, upstream, ours), []);
  });

  test('a trace recorded around a click and a hover lists the actions the upstream\'s lists: none of the pointer\'s way or of our reads of the page', async (t) => {
    const STEPS_TRACED: Step[] = [
      ['browser_navigate', (s) => ({ url: `${s}/form` })],
      ['browser_snapshot', () => ({})],
      ['browser_start_tracing', () => ({})],
      ['browser_click', (_s, _d, ref) => ({ target: ref('checkbox "Agree"'), element: 'Agree' })],
      ['browser_hover', (_s, _d, ref) => ({ target: ref('button "Send"'), element: 'Send' })],
      ['browser_stop_tracing', () => ({})],
    ];
    const recorded = async (server: Connected, dir: string) => {
      await runSteps(server.client, STEPS_TRACED, site.url, dir);
      // The trace just stopped: the newest of the session's (its name is normalised out of the results).
      const traces = fs.readdirSync(path.join(dir, 'traces')).filter((f) => f.endsWith('.trace')).map((f) => path.join(dir, 'traces', f));
      const newest = traces.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]!;
      const actions = new Map<string, number>();
      for (const line of fs.readFileSync(newest, 'utf8').split('\n')) {
        const call = /^\{"type":"before".*?"class":"(\w+)","method":"(\w+)"/.exec(line);
        if (call) actions.set(`${call[1]}.${call[2]}`, (actions.get(`${call[1]}.${call[2]}`) ?? 0) + 1);
      }
      return Object.fromEntries([...actions].sort());
    };
    const theirs = await recorded(servers[0]!, upstreamDir);
    const mine = await recorded(servers[1]!, oursDir);
    t.diagnostic(`recorded, upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    // The way there used to be recorded too: 41 pointer moves, 6 reads and a DevTools session beside one click.
    assert.ok(theirs['Frame.click'] === 1 && theirs['Frame.hover'] === 1, 'the upstream recorded the click and the hover');
    assert.deepEqual(mine, theirs);
  });

  test('the files the results name exist on both sides (screenshot, PDF, traces)', () => {
    for (const dir of [upstreamDir, oursDir]) {
      for (const file of ['shot.png', 'page.pdf']) assert.ok(fs.existsSync(path.join(dir, file)), `${dir}/${file}`);
      const traces = fs.readdirSync(path.join(dir, 'traces'));
      assert.ok(traces.some((f) => f.endsWith('.trace')) && traces.some((f) => f.endsWith('.network')) && traces.includes('resources'), `${dir}: ${traces}`);
    }
  });
});
