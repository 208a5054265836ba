import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { httpClient, initializeBody, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { freePort } from './helpers/processes.ts';
import { localInfo, testEnv, textOf } from './helpers/server.ts';
import { CHROMIUM, UPSTREAM_CLI } from './helpers/upstream-cli.ts';

// --shared-browser-context over Streamable HTTP: every client works in one
// browser context. The same clients and calls on the upstream CLI and on ours,
// in the same run: what each client sees of the others' tabs and storage, and
// what browser_close answers, must read the same.

type Client = Awaited<ReturnType<typeof httpClient>>;

const PAGE = `<title>shared</title><script>
if (location.pathname === '/set') { document.cookie = 'who=first; path=/'; localStorage.setItem('k', 'v1'); }
</script><p>page</p>`;

/** The upstream CLI serving HTTP on a free port; resolves once it answers. */
async function upstreamHttp(dir: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [UPSTREAM_CLI, '--port', String(port), '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--no-sandbox', '--output-dir', dir, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TMPDIR: dir },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const url = `http://localhost:${port}/mcp`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }).then(() => true, () => false);
    if (up) return { url, child };
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the upstream CLI did not start serving');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What a call shows a client: its result or error section (the page section names per-session file paths). */
async function seen(client: Client, name: string, args: Record<string, unknown>, site: string): Promise<string> {
  const result = await client.client.callTool({ name, arguments: args });
  const text = textOf(result).replaceAll(site, 'SITE');
  const section = text.match(/### (Result|Error)\n[\s\S]*?(?=\n###|$)/)?.[0] ?? text;
  return `${result.isError ? 'error ' : ''}${section}`;
}

async function leave(client: Client): Promise<void> {
  await client.transport.terminateSession().catch(() => {});
  await client.client.close();
}

/** Two clients, then a third after both left: what each saw, in order. */
async function scenario(url: string, site: string): Promise<string[]> {
  const out: string[] = [];
  const a = await httpClient(url);
  await a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site}/set` } });
  const b = await httpClient(url);
  out.push(await seen(b, 'browser_tabs', { action: 'list' }, site));
  out.push(await seen(b, 'browser_evaluate', { function: '() => [document.cookie, localStorage.getItem("k"), location.pathname].join(" ")' }, site));
  out.push(await seen(b, 'browser_tabs', { action: 'new', url: `${site}/from-b` }, site));
  out.push(await seen(a, 'browser_tabs', { action: 'list' }, site));
  out.push(await seen(b, 'browser_close', {}, site));
  await leave(b);
  out.push(await seen(a, 'browser_tabs', { action: 'list' }, site));
  await leave(a);
  // Both left: the browser went with the last; the profile on disk stays.
  const c = await httpClient(url);
  out.push(await seen(c, 'browser_navigate', { url: `${site}/read` }, site).then(() => 'navigated'));
  out.push(await seen(c, 'browser_tabs', { action: 'list' }, site));
  out.push(await seen(c, 'browser_evaluate', { function: '() => localStorage.getItem("k")' }, site));
  await leave(c);
  return out;
}

describe('--shared-browser-context over HTTP', () => {
  const dirs = useTempDir('spm-shared-');
  let site: http.Server;
  let siteUrl: string;
  let ours: HttpServer;
  before(async () => {
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  });
  after(async () => {
    await ours?.stop();
    site.close();
  });

  test('clients see one context as under the upstream CLI: each other\'s tabs and storage, browser_close refused, the browser gone with the last', async () => {
    const upstreamDir = fs.mkdtempSync(path.join(dirs.path, 'upstream-'));
    const upstream = await upstreamHttp(upstreamDir, ['--shared-browser-context', '--user-data-dir', path.join(upstreamDir, 'profile')]);
    let theirs: string[];
    try {
      theirs = await scenario(upstream.url, siteUrl);
    } finally {
      upstream.child.kill();
    }
    const ourDir = fs.mkdtempSync(path.join(dirs.path, 'ours-'));
    ours = await startHttpServer(testEnv(ourDir), ['--shared-browser-context', '--user-data-dir', path.join(ourDir, 'profile')]);
    const mine = await scenario(ours.url, siteUrl);
    assert.deepEqual(mine, theirs);
    // What the clients saw is the sharing, not a coincidence of two empty browsers.
    assert.match(theirs[0]!, /\[shared\]\(SITE\/set\)/, 'the second client sees the first one\'s tab');
    assert.match(theirs[1]!, /who=first v1 \/set/);
    assert.match(theirs[3]!, /SITE\/from-b/, 'the first client sees the tab the second opened');
    assert.match(theirs[4]!, /^error .*shared between clients and cannot be closed/s);
    assert.match(theirs[7]!, /- 0: \(current\) \[shared\]\(SITE\/read\)\n?$/, 'a client after both left finds a new browser');
    assert.match(theirs[8]!, /"v1"/, 'on the same profile');
    // No session left: no browser either.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(ours.browsers(), []);
  });

  test('a client asking for settings of its own is refused with the reason; others still share', async () => {
    const res = await fetch(ours.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-stealth-session-headless': 'false' },
      body: initializeBody(),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /--shared-browser-context/);
    assert.match(body.error.message, /headless \(x-stealth-session-headless\)/);
    const a = await httpClient(ours.url);
    const b = await httpClient(ours.url);
    await a.client.callTool({ name: 'browser_navigate', arguments: { url: `${siteUrl}/one` } });
    assert.match(await seen(b, 'browser_tabs', { action: 'list' }, siteUrl), /SITE\/one/);
    assert.equal(ours.browsers().filter((pid) => !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=')).length, 1, 'one browser for both');
    const info = (await localInfo(b.client)) as { session: { id: string }; sharedContext: { sessions: number; browserRunning: boolean } };
    assert.deepEqual(info.sharedContext, { sessions: 2, browserRunning: true });
    assert.notEqual(info.session.id, ((await localInfo(a.client)) as { session: { id: string } }).session.id, 'each session has an id of its own');
    await leave(a);
    await leave(b);
  });
});
