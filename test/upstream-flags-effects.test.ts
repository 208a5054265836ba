import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { connect, testEnv, textOf } from './helpers/server.ts';
import { normalise } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Upstream flags that change what the tools do, each on one command line given
// as it is to the upstream CLI and to ours in the same run: every call must read
// the same (ids, ports, paths and times normalised; our resource links aside),
// and the flags must have taken effect on both (a flag both ignored would read
// the same too).

/** A step's arguments, or a function of the last snapshot's text (for a ref). */
type Step = [tool: string, args: Record<string, unknown> | ((snapshot: string) => Record<string, unknown>)];

const pages = (other: string): Record<string, (req: http.IncomingMessage) => string> => ({
  '/main': () => `<title>Main</title><p id=o>fetch pending</p><img src="${other}/img" onload="i.textContent='img loaded'" onerror="i.textContent='img blocked'"><p id=i>img pending</p>
<script>fetch('${other}/data').then((r) => r.text()).then((t) => (o.textContent = 'fetch ' + t), () => (o.textContent = 'fetch blocked'))</script>`,
  '/data': () => 'DATA',
  '/perm': () => `<title>Perm</title><p id=o>perm pending</p><script>Promise.all(['clipboard-read', 'camera'].map((n) => navigator.permissions.query({ name: n }).then((p) => n + '=' + p.state))).then((a) => (o.textContent = a.join(' ')))</script>`,
  '/login': () => '<title>Login</title><label>Password <input id=p></label>',
  '/storage': (req) => `<title>Storage</title><p id=o></p><script>o.textContent = ['cookie=' + document.cookie, 'ls=' + localStorage.getItem('k'), 'init=' + (window.fromInitPage || 'no'), 'header=${req.headers['x-init-page'] ?? 'none'}'].join(' ')</script>`,
  '/testid': () => '<title>TestId</title><button data-qa="go-button" data-testid="other">Go</button>',
});

describe('upstream flags that change what tools do, side by side with the upstream CLI', () => {
  const dirs = useTempDir('spm-flag-effects-');
  let server: http.Server;
  let site: string;
  let other: string;
  before(async () => {
    server = http.createServer((req, res) => {
      const route = new URL(req.url!, 'http://x').pathname;
      if (route === '/img') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
      res.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' }).end(pages(other)[route]?.(req) ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    site = `http://127.0.0.1:${port}`;
    other = `http://localhost:${port}`;
  });
  after(() => void server.close());

  /** Each call's normalised result on both sides, then the files each left in its output dir. */
  async function bothSides(args: string[], steps: Step[]): Promise<Record<'upstream' | 'ours', string[]>> {
    const seen = {} as Record<'upstream' | 'ours', string[]>;
    for (const side of ['upstream', 'ours'] as const) {
      const dir = fs.mkdtempSync(path.join(dirs.path, `${side}-`));
      const s = side === 'upstream' ? await connectUpstream(dir, args) : await connect(testEnv(dir), args);
      const out: string[] = [];
      let snapshot = '';
      try {
        for (const [tool, toolArgs] of steps) {
          const result = await s.client.callTool({ name: tool, arguments: typeof toolArgs === 'function' ? toolArgs(snapshot) : toolArgs });
          if (tool === 'browser_snapshot') snapshot = textOf(result);
          const types = (result.content as { type: string }[]).map((c) => c.type).filter((t) => t !== 'resource_link');
          const text = normalise(textOf(result), site, dir).replaceAll(other, 'OTHER').replace(/\[ref=\w+\]/g, '[ref]');
          out.push(`${tool} error=${!!result.isError} content=${types.join(',')}\n${text}`);
        }
      } finally {
        await s.client.close();
      }
      const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile());
      out.push(`files: ${files.map((f) => f.replace(/\d{4}-\d\d-\d\dT[\d-]+Z/g, 'TIME').replace(/session-\d+/, 'session-N')).sort().join(' ')}`);
      seen[side] = out;
    }
    return seen;
  }

  test('origins blocked, permissions granted, secrets, init page, test id attribute, snapshot boxes, images omitted, session log', async () => {
    const secrets = path.join(dirs.path, 'secrets.env');
    fs.writeFileSync(secrets, 'PASSWORD=hunter2secret\n');
    const initPage = path.join(dirs.path, 'init-page.ts');
    fs.writeFileSync(initPage, "export default async ({ page }: { page: any }) => {\n  await page.addInitScript(() => { (window as any).fromInitPage = 'yes'; });\n  await page.setExtraHTTPHeaders({ 'x-init-page': 'on' });\n};\n");
    const args = ['--blocked-origins', other, '--grant-permissions', 'clipboard-read', '--secrets', secrets, '--init-page', initPage, '--test-id-attribute', 'data-qa', '--caps', 'testing', '--snapshot-boxes', '--viewport-size', '1280x720', '--image-responses', 'omit', '--save-session'];
    const { upstream, ours } = await bothSides(args, [
      ['browser_navigate', { url: `${site}/main` }],
      ['browser_wait_for', { text: 'img blocked' }],
      ['browser_snapshot', {}],
      ['browser_navigate', { url: `${site}/perm` }],
      ['browser_wait_for', { text: 'camera=' }],
      ['browser_snapshot', {}],
      ['browser_navigate', { url: `${site}/login` }],
      ['browser_type', { target: '#p', element: 'Password', text: 'hunter2secret' }],
      ['browser_evaluate', { function: '() => document.getElementById("p").value' }],
      ['browser_navigate', { url: `${site}/storage` }],
      ['browser_snapshot', {}],
      ['browser_navigate', { url: `${site}/testid` }],
      ['browser_snapshot', {}],
      ['browser_generate_locator', (snapshot) => ({ target: snapshot.match(/button "Go" \[ref=(\w+)\]/)?.[1] ?? 'no ref', element: 'Go' })],
      ['browser_take_screenshot', {}],
    ]);
    assert.deepEqual(ours, upstream);
    const all = upstream.join('\n');
    assert.match(all, /fetch blocked/);
    assert.match(all, /paragraph \[ref\] \[box=8,8,1264,19\]: fetch blocked/);
    assert.match(all, /clipboard-read=granted camera=\w+/);
    assert.match(all, /<secret>PASSWORD<\/secret>/);
    assert.doesNotMatch(all, /hunter2secret/);
    assert.match(all, /init=yes header=on/);
    assert.match(all, /getByTestId\('go-button'\)/);
    assert.match(upstream.at(-2)!, /^browser_take_screenshot error=false content=text\n/, 'no image part');
    assert.match(upstream.at(-1)!, /session-N\/session\.md/);
  });

  test('origins allowed, storage state, absolute paths, images only, output size cap, no settle wait', async () => {
    const state = path.join(dirs.path, 'state.json');
    const cookie = { name: 'c', value: 'from-state', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' };
    fs.writeFileSync(state, JSON.stringify({ cookies: [cookie], origins: [{ origin: site, localStorage: [{ name: 'k', value: 'ls-from-state' }] }] }));
    const args = ['--allowed-origins', site, '--storage-state', state, '--isolated', '--file-paths', 'absolute', '--image-responses', 'only', '--output-max-size', '3000', '--timeout-settle', '0'];
    const { upstream, ours } = await bothSides(args, [
      ['browser_navigate', { url: `${site}/main` }],
      ['browser_wait_for', { text: 'img blocked' }],
      ['browser_snapshot', {}],
      ['browser_navigate', { url: `${site}/storage` }],
      ['browser_snapshot', {}],
      ['browser_take_screenshot', {}],
      ['browser_take_screenshot', {}],
      ['browser_take_screenshot', {}],
    ]);
    assert.deepEqual(ours, upstream);
    const all = upstream.join('\n');
    assert.match(all, /fetch blocked/);
    assert.match(all, /cookie=c=from-state ls=ls-from-state/);
    assert.match(all, /\]\(OUT\/page-TIME\.yml\)/, 'absolute file paths');
    assert.match(upstream.at(-2)!, /^browser_take_screenshot error=false content=image\n$/, 'the image part alone');
    assert.ok(upstream.at(-1)!.split(' ').filter((f) => f.endsWith('.png')).length < 3, 'older output evicted');
  });
});
