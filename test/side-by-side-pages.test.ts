import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { freePort } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { differences, runSteps, type Step } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// The same tools on pages built the way real sites are, rather than on the
// tool site's one-feature pages: same-origin and cross-origin iframes, open
// and closed shadow roots, a confirm that leads to an alert, a target below
// the fold, contenteditable, a multiple select, details, a hover menu, a
// console of every kind, the browser's own prompts and device choosers
// (answered at once or left pending), and the navigations an agent meets (redirects, error
// statuses, basic auth, a slow server, JSON, a download, data: and about:
// URLs, URLs that are refused), and a page under a strict Content-Security-Policy with Trusted
// Types enforced, where code of ours that ran in the page's world would be refused or reported.
// Sent to the upstream CLI and to our server
// with our defaults; each result must read the same as the upstream's.
const CAPS = ['--caps', 'vision,pdf,devtools,network,storage,testing'];
const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

function pages(other: string): Record<string, string> {
  return {
    '/frames': page('Frames', `<h1>Outer</h1><iframe title="inner" src="/inner" width=400 height=200></iframe><iframe title="cross" src="${other}/cross" width=400 height=200></iframe>`),
    '/inner': page('Inner', `<button onclick="document.getElementById('o').textContent='inner clicked'">Inner button</button><p id=o>idle</p><input aria-label="Inner field">`),
    '/cross': page('Cross', `<a href="#x" onclick="document.body.append('cross clicked')">Cross link</a><script>console.log('cross says hi', {k: 2})</script>`),
    '/shadow': page('Shadow', `<div id=host></div><div id=closed></div><script>
      const r = document.getElementById('host').attachShadow({mode: 'open'}); r.innerHTML = '<button onclick="this.textContent=\\'shadow done\\'">Shadow button</button><slot></slot>';
      const c = document.getElementById('closed').attachShadow({mode: 'closed'}); c.innerHTML = '<p>closed text</p><input aria-label="Closed field">';
    </script>`),
    // Every console method, uncaught errors and a failed fetch (no <img>: its 404 races the script on the upstream).
    '/console-mix': page('Console mix', `<p>console</p><script>
      console.log({a: 1, b: [1, 2], c: {d: 'e'}}, [3, 4], null, undefined, 5n);
      console.log('%s is %d', 'x', 5, 'extra');
      console.info(document.body);
      console.warn(new RangeError('ranged'));
      console.error('err', new Error('boom'));
      console.debug('debugging');
      console.table([{a: 1, b: 2}]);
      console.assert(false, 'assertion', 1);
      console.assert(true, 'not shown');
      console.group('grp'); console.log('inside'); console.groupEnd();
      console.count(); console.count('x');
      console.dir({z: 1});
      console.trace('traced');
      Promise.reject(new Error('unhandled one'));
      setTimeout(() => { throw new SyntaxError('thrown later'); }, 0);
      fetch('/nope-404');
    </script>`),
    '/dialogs': page('Dialogs', `<button onclick="if (confirm('sure?')) { alert('yes'); } else { document.title = 'declined'; }">Ask</button><button onclick="document.title = prompt('name?', 'def') || 'none'">Prompt</button>`),
    '/below': page('Below the fold', `<div style="height:3000px">tall</div><button onclick="this.textContent='far clicked'">Far button</button>`),
    '/edit': page('Edit', `<div contenteditable="true" aria-label="Editor" role="textbox"></div><select multiple aria-label="Many"><option>a</option><option>b</option><option>c</option></select><details><summary>More</summary><p>hidden detail</p></details><table><tr><th>H1</th><th>H2</th></tr><tr><td>c1</td><td>c2</td></tr></table><ul><li aria-hidden="true">hidden li</li><li>shown li</li></ul>`),
    '/hover': page('Hover', `<style>#m{display:none} #w:hover #m{display:block}</style><div id=w><span>Menu</span><div id=m><a href="#sub">Submenu item</a></div></div>`),
    '/keys': page('Keys', `<input aria-label="K" autofocus><p id=o></p><script>addEventListener('keydown', (e) => { document.getElementById('o').textContent += e.key + ','; })</script>`),
    // The browser's own prompts and choosers (files, devices, permissions, payment, an eyedropper):
    // Chromium answers some at once, headless, and leaves the rest pending; a call must not wait on either
    // (the ones that hold the tab's input, HTTP sign-in and screen sharing: held-pointer.test.ts).
    '/prompts': page('Prompts', `<button onclick="ask(permissions)">Ask for permissions</button><button onclick="ask({openPicker: () => showOpenFilePicker()})">Open a file</button>
      <button onclick="ask({eyedrop: () => new EyeDropper().open()})">Pick a colour</button><button onclick="ask({usb: () => navigator.usb.requestDevice({filters: []})})">Choose a USB device</button>
      <button onclick="ask({payment: () => new PaymentRequest([{supportedMethods: 'https://pay.invalid/'}], {total: {label: 't', amount: {currency: 'USD', value: '1'}}}).show()})">Pay</button><script>
      window.results = {};
      // Asked together: none of these needs the click's activation, so their order cannot change an answer.
      const permissions = {
        camera: () => navigator.mediaDevices.getUserMedia({video: true}), notify: () => Notification.requestPermission(),
        geo: () => new Promise((ok, no) => navigator.geolocation.getCurrentPosition(ok, no)), midi: () => navigator.requestMIDIAccess({sysex: true}),
        keyboardLock: () => navigator.keyboard.lock(),
      };
      function ask(asks) {
        for (const [name, ask] of Object.entries(asks)) {
          results[name] = 'pending';
          try { Promise.resolve(ask()).then((v) => results[name] = 'ok ' + String(v).slice(0, 30), (e) => results[name] = 'rejected ' + e.name); }
          catch (e) { results[name] = 'threw ' + e.name; }
        }
      }
    </script>`),
    '/values': page('Values', `<p>values</p><script>window.big = 'x'.repeat(100000); window.circ = {}; circ.self = circ;</script>`),
  };
}

function answer(req: http.IncomingMessage, res: http.ServerResponse, table: Record<string, string>): void {
  const url = (req.url ?? '/').split('?')[0]!;
  const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html' }).end(body);
  if (url === '/auth') {
    if (req.headers.authorization === `Basic ${Buffer.from('u:p').toString('base64')}`) return void html(200, page('Authed', '<p>welcome</p>'));
    return void res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end('denied');
  }
  if (url === '/slow') return void setTimeout(() => html(200, page('Slow', '<p>finally</p>')), 1500);
  if (url === '/redirect') return void res.writeHead(302, { location: '/plain' }).end();
  if (url === '/plain') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('just text\nline two');
  if (url === '/json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":[1,2,3]}');
  if (url === '/bin') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(100));
  if (url === '/500') return void html(500, page('Oops', '<h1>server error</h1>'));
  // No inline script, no eval, no string-to-code sink without a policy, and none may be made.
  if (url === '/csp') return void res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': STRICT_CSP }).end(page('Strict CSP', `<script src="/csp.js"></script><p id=p>idle</p><input aria-label="Guarded field"><button id=b>Guarded button</button>`));
  if (url === '/csp.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(`addEventListener('DOMContentLoaded', () => document.getElementById('b').addEventListener('click', () => { document.getElementById('p').textContent = 'pressed under csp'; }));`);
  const known = table[url];
  if (known) return void html(200, known);
  html(404, page('Not found', '<p>nope</p>'));
}

const STRICT_CSP = "default-src 'self'; script-src 'self'; require-trusted-types-for 'script'; trusted-types 'none'";

const evaluate = (fn: string): Step => ['browser_evaluate', () => ({ function: fn })];

const STEPS: Step[] = [
  ['browser_navigate_back', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/frames` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Inner button', target: ref('button "Inner button"') })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Inner field', target: ref('textbox "Inner field"'), text: 'hello' })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Cross link', target: ref('link "Cross link"') })],
  ['browser_snapshot', () => ({})],
  ['browser_evaluate', (_s, _d, ref) => ({ element: 'Inner field', target: ref('textbox "Inner field"'), function: '(e) => e.value' })],
  ['browser_console_messages', () => ({ level: 'debug', all: true })],
  ['browser_navigate', (s) => ({ url: `${s}/shadow` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Shadow button', target: ref('button "Shadow button"') })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Closed field', target: ref('textbox "Closed field"'), text: 'sh' })],
  ['browser_snapshot', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/console-mix` })],
  ['browser_wait_for', () => ({ time: 0.5 })],
  ['browser_console_messages', () => ({ level: 'debug' })],
  ['browser_console_messages', () => ({ level: 'error' })],
  ['browser_navigate', (s) => ({ url: `${s}/dialogs` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Ask', target: ref('button "Ask"') })],
  ['browser_handle_dialog', () => ({ accept: true })],
  ['browser_handle_dialog', () => ({ accept: true })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Ask', target: ref('button "Ask"') })],
  ['browser_handle_dialog', () => ({ accept: false })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Prompt', target: ref('button "Prompt"') })],
  ['browser_handle_dialog', () => ({ accept: true, promptText: 'Zed' })],
  evaluate('() => document.title'),
  ['browser_navigate', (s) => ({ url: `${s}/below` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Far button', target: ref('button "Far button"') })],
  evaluate('() => [Math.round(scrollY) > 1000, document.querySelector("button").textContent]'),
  ['browser_navigate', (s) => ({ url: `${s}/edit` })],
  ['browser_snapshot', () => ({})],
  ['browser_type', (_s, _d, ref) => ({ element: 'Editor', target: ref('textbox "Editor"'), text: 'rich text' })],
  ['browser_select_option', (_s, _d, ref) => ({ element: 'Many', target: ref('listbox "Many"'), values: ['a', 'c'] })],
  ['browser_click', (_s, _d, ref) => ({ element: 'More', target: ref('group') })],
  ['browser_snapshot', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/hover` })],
  ['browser_snapshot', () => ({})],
  ['browser_hover', () => ({ element: 'Menu', target: '#w span' })],
  ['browser_snapshot', () => ({})],
  ['browser_navigate', () => ({ url: 'data:text/html,<title>D</title><p>data page</p>' })],
  ['browser_navigate', () => ({ url: 'about:blank' })],
  ['browser_navigate', (s) => ({ url: `${s}/redirect` })],
  ['browser_navigate', (s) => ({ url: `${s}/json` })],
  ['browser_navigate', (s) => ({ url: `${s}/500` })],
  ['browser_navigate', (s) => ({ url: `${s}/missing` })],
  ['browser_navigate', (s) => ({ url: `${s}/slow` })],
  ['browser_navigate', (s) => ({ url: `${s}/bin` })],
  ['browser_navigate', (s) => ({ url: `${s}/auth` })],
  // Its error page commits a moment after the failure (when, relative to the next call, is timing on both sides).
  ['browser_wait_for', () => ({ time: 1 })],
  ['browser_tabs', () => ({ action: 'list' })],
  ['browser_tabs', () => ({ action: 'select', index: 7 })],
  ['browser_tabs', () => ({ action: 'close', index: 5 })],
  ['browser_navigate', (s) => ({ url: `${s}/keys` })],
  ['browser_press_key', () => ({ key: 'a' })],
  ['browser_press_key', () => ({ key: 'Shift+A' })],
  ['browser_press_key', () => ({ key: 'Control+a' })],
  ['browser_press_key', () => ({ key: 'ArrowLeft' })],
  ['browser_press_key', () => ({ key: 'Enter' })],
  evaluate('() => document.getElementById("o").textContent'),
  ['browser_navigate', (s) => ({ url: `${s}/csp` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Guarded button', target: ref('button "Guarded button"') })],
  ['browser_type', (_s, _d, ref) => ({ element: 'Guarded field', target: ref('textbox "Guarded field"'), text: 'typed under csp' })],
  evaluate('() => document.getElementById("p").textContent + "|" + document.querySelector("input").value'),
  ['browser_evaluate', (_s, _d, ref) => ({ element: 'Guarded field', target: ref('textbox "Guarded field"'), function: '(e) => e.value.length' })],
  ['browser_console_messages', () => ({ level: 'debug' })],
  ['browser_navigate', (s) => ({ url: `${s}/prompts` })],
  ['browser_snapshot', () => ({})],
  ['browser_click', (_s, _d, ref) => ({ element: 'Ask for permissions', target: ref('button "Ask for permissions"') })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Open a file', target: ref('button "Open a file"') })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Pick a colour', target: ref('button "Pick a colour"') })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Choose a USB device', target: ref('button "Choose a USB device"') })],
  ['browser_click', (_s, _d, ref) => ({ element: 'Pay', target: ref('button "Pay"') })],
  ['browser_wait_for', () => ({ time: 1 })],
  evaluate('() => Object.entries(results).sort().map(([k, v]) => k + ": " + v).join("\\n")'),
  ['browser_tabs', () => ({ action: 'list' })],
  ['browser_snapshot', () => ({})],
  ['browser_navigate', (s) => ({ url: `${s}/values` })],
  evaluate('() => undefined'),
  evaluate('() => null'),
  evaluate('() => window.circ'),
  evaluate('() => window.big.length'),
  evaluate('() => new Promise((r) => setTimeout(() => r(7), 100))'),
  evaluate('() => document.querySelector("p")'),
  evaluate('() => [1, "a", {b: 2}, NaN, Infinity, -0, 10n]'),
  evaluate('() => new Date(0)'),
  evaluate('() => /re/g'),
  evaluate('() => new Map([[1, 2]])'),
  evaluate('document.title'),
  ['browser_wait_for', () => ({ text: 'values', textGone: 'nothing' })],
  ['browser_wait_for', () => ({})],
  ['browser_snapshot', (_s, d) => ({ filename: path.join(d, 'snap.md') })],
  ['browser_network_requests', () => ({ static: true })],
  ['browser_console_messages', () => ({ level: 'warning' })],
  ['browser_resize', () => ({ width: 0, height: 10 })],
  ['browser_navigate', () => ({ url: 'file:///etc/hostname' })],
  ['browser_navigate', () => ({ url: 'chrome://version' })],
  ['browser_navigate', () => ({ url: 'javascript:alert(1)' })],
];

describe('side by side with the upstream CLI: pages built like real sites read the same', () => {
  const dirs = useTempDir('spm-sbs3-');
  let server: http.Server;
  let site: string;
  const servers: Connected[] = [];
  let upstream: string[];
  let ours: string[];
  let dirsOf: [string, string];
  before(async () => {
    let table: Record<string, string> = {};
    server = http.createServer((req, res) => answer(req, res, table));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    site = `http://127.0.0.1:${port}`;
    table = pages(`http://localhost:${port}`);
    dirsOf = ['upstream', 'ours'].map((name) => path.join(dirs.path, name)) as [string, string];
    const [upstreamDir, oursDir] = dirsOf;
    for (const d of [upstreamDir, oursDir]) fs.mkdirSync(d, { recursive: true });
    const a = await connectUpstream(upstreamDir, CAPS);
    servers.push(a);
    upstream = await runSteps(a.client, STEPS, site, upstreamDir);
    const b = await connect(testEnv(oursDir), [...CAPS, '--output-dir', oursDir]);
    servers.push(b);
    ours = await runSteps(b.client, STEPS, site, oursDir);
  });
  after(async () => {
    await closeAll(servers);
    server?.close();
  });

  test('every call gives the same result text (normalised)', () => {
    assert.deepEqual(differences(STEPS, upstream, ours), []);
  });

  test('the steps took effect (frames, shadow roots, dialogs, keys, a strict CSP)', () => {
    const joined = ours.join('\n');
    for (const seen of ['openPicker: rejected AbortError', 'notify: ok denied', 'usb: rejected NotFoundError', 'payment: rejected NotSupportedError', 'inner clicked', 'cross clicked', 'shadow done', '"Zed"', 'far clicked', 'Submenu item', '"a,Shift,A,Control,a,ArrowLeft,Enter,"', '"pressed under csp|typed under csp"']) assert.ok(joined.includes(seen), seen);
    for (const dir of dirsOf) assert.ok(fs.existsSync(path.join(dir, 'snap.md')), `${dir}/snap.md`);
  });

  // The upstream's navigate after one that failed is cut short by the failed one's error page
  // ("interrupted by another navigation to chrome-error://chromewebdata/"), and every later one by
  // the one before it; ours lands each, as a browser would.
  test('after navigations that failed, the next ones land', async () => {
    const dead = await freePort(); // nothing listens there
    const outputDir = path.join(dirs.path, 'ours-failed');
    fs.mkdirSync(outputDir, { recursive: true });
    const b = await connect(testEnv(outputDir), [...CAPS, '--output-dir', outputDir]);
    servers.push(b);
    const call = async (url: string) => textOf(await b.client.callTool({ name: 'browser_navigate', arguments: { url } }));
    assert.match(await call(`http://127.0.0.1:${dead}/`), /ERR_CONNECTION_REFUSED/);
    assert.match(await call('not a url'), /ERR_NAME_NOT_RESOLVED/);
    assert.match(await call('data:text/html,<title>D</title><p>data page</p>'), /Page Title: D\n/);
    assert.match(await call('about:blank'), /Page URL: about:blank\n/);
    assert.match(await call(`${site}/redirect`), /Page URL: .*\/plain\n/);
  });
});
