import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { normalise, refIn } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// The situations the upstream's own MCP tests put its tools in (Playwright's
// tests/mcp: clicks with modifiers, dialogs that race the click, a navigation
// that destroys the page under a click, a ref whose element went, stitched
// frames, a form of every field kind, the file chooser's modal state, a
// download cut short by closing the browser, raw mouse buttons), played on
// the upstream CLI and on our server with our defaults (humanised input, the
// quiet runtime) in the same run. Every result must read as the upstream's;
// each scenario also checks, on the upstream, what its own test checks, so a
// page that no longer does what the scenario needs fails here too.

type Call = (tool: string, args?: Record<string, unknown>) => Promise<string>;
/** The ref of the element the last snapshot lists with this role and name, e.g. `button "Submit"`. */
type Ref = (label: string) => string;
interface Scenario {
  page?: string;
  play: (call: Call, ref: Ref, site: string, dir: string) => Promise<string[]>;
  /** What the upstream's own test asserts, read on the upstream's results. */
  expect: RegExp[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const EVENTS = `<!DOCTYPE html><body style="width:400px;height:400px;margin:0"><div id=log></div><script>
const log = (...a) => { const e = document.createElement('div'); e.textContent = a.join(' '); document.getElementById('log').appendChild(e) };
for (const t of ['mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu']) document.body.addEventListener(t, (e) => { if (t === 'contextmenu') e.preventDefault(); log(t, 'button:' + e.button) });
document.body.addEventListener('mousemove', (e) => log('mousemove', e.clientX, e.clientY));
</script></body>`;
/** Opens the page and reads its snapshot (both results kept). */
const open = async (call: Call, url: string) => [await call('browser_navigate', { url }), await call('browser_snapshot')];

const SCENARIOS: Record<string, Scenario> = {
  'a click with modifiers': {
    page: `<title>Title</title><button>Submit</button><div id=div></div><script>document.addEventListener('click', (e) => { document.getElementById('div').textContent = 'ctrlKey:' + e.ctrlKey + ' shiftKey:' + e.shiftKey + ' altKey:' + e.altKey })</script>`,
    play: async (call, ref, site) => [
      ...(await open(call, site)),
      await call('browser_click', { element: 'Submit', target: ref('button "Submit"'), modifiers: ['Control'] }),
      await call('browser_snapshot'),
      await call('browser_click', { element: 'Submit', target: ref('button "Submit"'), modifiers: ['Shift', 'Alt'] }),
      await call('browser_snapshot'),
    ],
    expect: [/ctrlKey:true shiftKey:false altKey:false/, /ctrlKey:false shiftKey:true altKey:true/],
  },
  'a double click and a right click': {
    page: `<title>Title</title><h1 ondblclick="this.textContent = 'Double clicked'">Click me</h1><button>Menu</button><script>document.addEventListener('contextmenu', (e) => { e.preventDefault(); document.querySelector('button').textContent = 'Right clicked' })</script>`,
    play: async (call, ref, site) => [
      ...(await open(call, site)),
      await call('browser_click', { element: 'Click me', target: ref('heading "Click me"'), doubleClick: true }),
      await call('browser_click', { element: 'Menu', target: ref('button "Menu"'), button: 'right' }),
      await call('browser_snapshot'),
    ],
    expect: [/heading "Double clicked"/, /button "Right clicked"/],
  },
  'a click whose page leaves for about:blank 100 ms later': {
    page: `<title>Title</title><button onclick='setTimeout(() => window.location = "about:blank", 100)'>Submit</button>`,
    play: async (call, ref, site) => [...(await open(call, site)), await call('browser_click', { element: 'Submit', target: ref('button "Submit"') })],
    expect: [/Page URL: about:blank/],
  },
  'two alerts from one click, then a click while one is open': {
    page: `<title>Title</title><button onclick="alert('Alert 1'); alert('Alert 2')">Button</button>`,
    play: async (call, ref, site) => [
      ...(await open(call, site)),
      await call('browser_click', { element: 'Button', target: ref('button "Button"') }),
      await call('browser_click', { element: 'Button', target: ref('button "Button"') }),
      await call('browser_handle_dialog', { accept: true }),
      await call('browser_handle_dialog', { accept: true }),
    ],
    expect: [/\["alert" dialog with message "Alert 1"\]/, /does not handle the modal state/, /\["alert" dialog with message "Alert 2"\]/],
  },
  'an alert 100 ms after the click, a confirm declined, a prompt answered': {
    page: `<title>Title</title><button onclick="setTimeout(() => alert('Alert'), 100)">Late</button><button onclick="document.getElementById('out').textContent = confirm('Confirm')">Confirm</button><button onclick="document.getElementById('out').textContent = prompt('Prompt')">Prompt</button><p id=out></p>`,
    play: async (call, ref, site) => [
      ...(await open(call, site)),
      await call('browser_click', { element: 'Late', target: ref('button "Late"') }),
      await call('browser_handle_dialog', { accept: true }),
      await call('browser_click', { element: 'Confirm', target: ref('button "Confirm"') }),
      await call('browser_handle_dialog', { accept: false }),
      await call('browser_snapshot'),
      await call('browser_click', { element: 'Prompt', target: ref('button "Prompt"') }),
      await call('browser_handle_dialog', { accept: true, promptText: 'Answer' }),
      await call('browser_snapshot'),
    ],
    expect: [/\["alert" dialog with message "Alert"\]/, /\["confirm" dialog with message "Confirm"\]/, /paragraph \[ref=\w+\]: "false"/, /paragraph \[ref=\w+\]: Answer/],
  },
  'a ref whose element the last click removed': {
    page: `<button>Button 1</button><button>Button 2</button><script>document.querySelector('button').addEventListener('click', () => document.querySelectorAll('button')[1].remove())</script>`,
    play: async (call, ref, site) => {
      const opened = await open(call, site);
      const gone = ref('button "Button 2"');
      return [...opened, await call('browser_click', { element: 'Button 1', target: ref('button "Button 1"') }), await call('browser_click', { element: 'Button 2', target: gone })];
    },
    expect: [/Ref \w+ not found in the current page snapshot/],
  },
  'a resize the page hears of, a button visible inside a hidden box': {
    page: `<title>Resize Test</title><div id=size>Waiting for resize...</div><div style="visibility: hidden"><div style="visibility: visible"><button>Button</button></div></div><script>addEventListener('resize', () => { document.getElementById('size').textContent = 'Window size: ' + innerWidth + 'x' + innerHeight })</script>`,
    play: async (call, _ref, site) => {
      const opened = await open(call, site);
      const resized = await call('browser_resize', { width: 390, height: 780 });
      await pause(500);
      return [...opened, resized, await call('browser_snapshot')];
    },
    expect: [/Window size: 390x780/, /button "Button"/],
  },
  'stitched frames, a click in a frame': {
    play: async (call, ref) => [
      ...(await open(call, `data:text/html,<h1>Hello</h1><iframe src="data:text/html,<button>World</button><main><iframe src='data:text/html,<p>Nested</p>'></iframe></main>"></iframe><iframe src="data:text/html,<h1>Should be invisible</h1>" style="display: none;"></iframe>`)),
      await call('browser_click', { element: 'World', target: ref('button "World"') }),
    ],
    expect: [/paragraph \[ref=\w+\]: Nested/, /contentFrame\(\)\.getByRole\('button', \{ name: 'World' \}\)\.click\(\)/],
  },
  'a form of every field kind in one browser_fill_form': {
    page: `<form><label><input type=text name=name> Name</label><label><input type=email name=email> Email</label><label><input type=range name=age min=18 max=100> Age</label><label><select name=country><option value="">Choose a country</option><option value=us>United States</option><option value=uk>United Kingdom</option></select> Country</label><label><input type=checkbox name=subscribe> Subscribe to newsletter</label></form>`,
    play: async (call, ref, site) => {
      const opened = await open(call, site);
      const fields = [
        { name: 'Name', type: 'textbox', target: ref('textbox "Name"'), value: 'John Doe' },
        { name: 'Email', type: 'textbox', target: ref('textbox "Email"'), value: 'john.doe@example.com' },
        { name: 'Age', type: 'slider', target: ref('slider "Age"'), value: '25' },
        { name: 'Country', type: 'combobox', target: ref('combobox'), value: 'United States' },
        { name: 'Subscribe', type: 'checkbox', target: ref('checkbox "Subscribe to newsletter"'), value: 'true' },
      ];
      return [...opened, await call('browser_fill_form', { fields }), await call('browser_snapshot')];
    },
    expect: [/textbox "Name".*John Doe/, /slider "Age".*"25"/, /option "United States" \[selected\]/, /checkbox "Subscribe to newsletter" \[checked\]/],
  },
  'the file chooser: no chooser, a chooser, a missing file, a retry, another click while it is open': {
    page: `<input type=file><button>Button</button>`,
    play: async (call, ref, site, dir) => {
      fs.writeFileSync(path.join(dir, 'test.txt'), 'Hello, world!');
      const opened = await open(call, site);
      const chooser = ref('button "Choose File"');
      const other = ref('button "Button"');
      return [
        ...opened,
        await call('browser_file_upload', { paths: [] }),
        await call('browser_click', { element: 'Choose File', target: chooser }),
        await call('browser_file_upload', { paths: [path.join(dir, 'missing.txt')] }),
        await call('browser_file_upload', { paths: [path.join(dir, 'test.txt')] }),
        await call('browser_click', { element: 'Choose File', target: chooser }),
        await call('browser_click', { element: 'Button', target: other }),
        await call('browser_file_upload', { paths: [] }),
      ];
    },
    expect: [/can only be used when there is related modal state present/, /\[File chooser\]: can be handled by browser_file_upload/, /await fileChooser\.setFiles\(/, /Tool "browser_click" does not handle the modal state/],
  },
  'a download cut short by closing the browser, then a navigate': {
    page: `<a href="/endless-download" download="test.txt">Download</a>`,
    play: async (call, ref, site) => {
      const opened = await open(call, site);
      const clicked = await call('browser_click', { element: 'Download link', target: ref('link "Download"') });
      await pause(800);
      const out = [...opened, clicked, await call('browser_snapshot'), await call('browser_close')];
      await pause(1000);
      return [...out, ...(await open(call, site))];
    },
    expect: [/Downloading file test\.txt/, /No open tabs/, /link "Download" \[ref=\w+\]/],
  },
  'raw mouse clicks: left, right, middle, double': {
    page: EVENTS,
    play: async (call, _ref, site) => {
      const out: string[] = [];
      for (const extra of [{}, { button: 'right' }, { button: 'middle' }, { clickCount: 2 }]) {
        await call('browser_navigate', { url: site });
        out.push(await call('browser_mouse_click_xy', { x: 100, y: 100, ...extra }), await call('browser_snapshot'));
      }
      return out;
    },
    expect: [/mousemove 100 100.*mousedown button:0.*mouseup button:0.*click button:0/s, /mousedown button:2.*contextmenu button:2.*mouseup button:2/s, /mousedown button:1.*mouseup button:1/s, /dblclick button:0/],
  },
};

describe('the upstream\'s own test situations, side by side with the upstream CLI (our defaults on)', () => {
  const dirs = useTempDir('spm-upstream-scenarios-');
  let server: http.Server;
  let site = '';
  let both: { upstream: Connected; ours: Connected };
  const pages = new Map<string, string>();
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/endless-download') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename=test.txt' });
        res.write('a'.repeat(4096));
        return;
      }
      // A favicon's 404 would reach the console at a moment of its own, in one result or the next.
      if (req.url === '/favicon.ico') return void res.writeHead(204).end();
      const page = pages.get(req.url ?? '/');
      res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html' }).end(page ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const side of ['upstream', 'ours']) fs.mkdirSync(path.join(dirs.path, side));
    const [upstream, ours] = await Promise.all([
      connectUpstream(path.join(dirs.path, 'upstream'), ['--caps', 'vision']),
      connect(testEnv(path.join(dirs.path, 'ours')), ['--caps', 'vision']),
    ]);
    both = { upstream, ours };
  });
  after(async () => {
    await closeAll([both.upstream, both.ours]);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const play = async (client: Client, scenario: Scenario, url: string, dir: string) => {
    let snapshot = '';
    const call: Call = async (tool, args = {}) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 });
      if (tool === 'browser_snapshot') snapshot = textOf(result);
      return `${tool} error=${!!result.isError}\n${normalise(textOf(result), site, dir)}`;
    };
    const ref: Ref = (label) => refIn(snapshot, label);
    return scenario.play(call, ref, url, dir);
  };

  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    test(name, { timeout: 120_000 }, async () => {
      const at = `/${encodeURIComponent(name)}`;
      if (scenario.page !== undefined) pages.set(at, scenario.page);
      const theirs = await play(both.upstream.client, scenario, site + at, path.join(dirs.path, 'upstream'));
      const mine = await play(both.ours.client, scenario, site + at, path.join(dirs.path, 'ours'));
      for (const expected of scenario.expect) assert.match(theirs.join('\n'), expected, 'the upstream does what its own test checks');
      assert.deepEqual(mine, theirs);
    });
  }
});
