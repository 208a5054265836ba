import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { httpClient, initializeBody, MCP_HEADERS, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { runCli, testEnv, textOf } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

async function evaluate(client: Client, fn: string): Promise<string> {
  return textOf(await client.callTool({ name: 'browser_evaluate', arguments: { function: fn } }));
}

async function initialize(server: HttpServer, meta: unknown): Promise<{ status: number; message: string }> {
  const response = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody(meta) });
  const text = await response.text();
  let message = text;
  try {
    message = JSON.parse(text).error?.message ?? text;
  } catch {
    // an SSE answer (accepted): keep the text
  }
  return { status: response.status, message };
}

/** A pid that existed and is gone now. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('persistent profiles, extensions and context options', () => {
  const site = useSite();
  const output = useTempDir('spm-profiles-');
  let extensionDir: string;
  let server: HttpServer;

  before(async () => {
    // A test extension: a content script that marks every page's DOM.
    extensionDir = path.join(output.path, 'marker-extension');
    fs.mkdirSync(extensionDir);
    fs.writeFileSync(path.join(extensionDir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'Marker', version: '1.0', content_scripts: [{ matches: ['<all_urls>'], js: ['mark.js'], run_at: 'document_end' }] }));
    fs.writeFileSync(path.join(extensionDir, 'mark.js'), 'document.body.insertAdjacentHTML("beforeend", "<p>Extension marker present</p>")');
    server = await startHttpServer(testEnv(output.path));
  });
  after(async () => {
    await server?.stop();
  });

  test('cookies and storage of a named profile survive the session and a server restart; a second session on it is refused', async () => {
    const first = await httpClient(server.url, { headers: { 'X-Stealth-Session-Profile': 'alpha' } });
    await first.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    await evaluate(first.client, '() => { document.cookie = "kept=yes; max-age=86400; path=/"; localStorage.setItem("kept", "stored"); }');
    const info = ((await first.client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any }).structuredContent;
    assert.equal(info.session.profile.dir, path.join(fs.realpathSync(output.path), 'profiles', 'alpha'));

    // In this process, and from another server process on the same output dir.
    const twice = await initialize(server, { profile: 'alpha' });
    assert.equal(twice.status, 409);
    assert.match(twice.message, /Profile "alpha" is already in use by another session of this server\. Fix:/);
    const other = await startHttpServer(testEnv(output.path));
    try {
      const elsewhere = await initialize(other, { profile: 'alpha' });
      assert.equal(elsewhere.status, 409);
      assert.match(elsewhere.message, new RegExp(`in use by another server process \\(pid ${server.child.pid}`));
    } finally {
      await other.stop();
    }

    await first.transport.terminateSession();
    await first.client.close();
    await server.stop();
    server = await startHttpServer(testEnv(output.path));
    const again = await httpClient(server.url, { headers: { 'X-Stealth-Session-Profile': 'alpha' } });
    await again.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
    assert.match(await evaluate(again.client, '() => document.cookie + " " + localStorage.getItem("kept")'), /kept=yes stored/);
    // The returning visitor keeps its fingerprint seed too, on the browser's command line.
    const againInfo = ((await again.client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any }).structuredContent;
    assert.equal(againInfo.session.launch.seed, info.session.launch.seed);
    assert.ok(againInfo.session.launch.args.includes(`--fingerprint=${info.session.launch.seed}`));
    await again.transport.terminateSession();
    await again.client.close();
  });

  test('a stale Chromium lock of a dead process is cleared; a live one is never touched', async () => {
    const dir = path.join(output.path, 'profiles', 'stale');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(`${os.hostname()}-${deadPid()}`, path.join(dir, 'SingletonLock'));
    fs.writeFileSync(path.join(dir, '.stealth-playwright-mcp.lock'), JSON.stringify({ pid: deadPid(), host: os.hostname(), createdAt: 'earlier' }));
    const { client, transport } = await httpClient(server.url, { headers: { 'X-Stealth-Session-Profile': 'stale' } });
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    assert.match(server.stderr(), /cleared a stale Chromium lock of dead pid \d+ in Profile "stale"/);
    await transport.terminateSession();
    await client.close();

    const live = path.join(output.path, 'profiles', 'live');
    fs.mkdirSync(live, { recursive: true });
    fs.symlinkSync(`${os.hostname()}-${process.pid}`, path.join(live, 'SingletonLock'));
    const refused = await initialize(server, { profile: 'live' });
    assert.equal(refused.status, 409);
    assert.match(refused.message, new RegExp(`in use by a running Chromium \\(pid ${process.pid}\\)`));
    assert.equal(fs.readlinkSync(path.join(live, 'SingletonLock')), `${os.hostname()}-${process.pid}`);
    assert.ok(!fs.existsSync(path.join(live, '.stealth-playwright-mcp.lock')), 'the refused session left no lock');
  });

  test('profile names that could leave the root are refused, and nothing is created', async () => {
    for (const name of ['../escape', 'a/b', '..', '.hidden', '', 'x'.repeat(65), '/etc']) {
      const refused = await initialize(server, { profile: name });
      assert.equal(refused.status, 400, name);
      assert.match(refused.message, /Invalid session setting _meta\["stealth-playwright-mcp\/session"\]\.profile: a profile name is 1 to 64 characters/);
    }
    const viaHeader = await fetch(server.url, { method: 'POST', headers: { ...MCP_HEADERS, 'x-stealth-session-profile': '..%2Fescape' }, body: initializeBody() });
    assert.equal(viaHeader.status, 400);
    assert.ok(!fs.existsSync(path.join(output.path, 'escape')));
    assert.ok(!fs.existsSync(path.join(output.path, 'profiles', '..%2Fescape')));
  });

  test('context options per session are applied; unknown and dangerous keys are refused by name', async () => {
    const { client, transport } = await httpClient(server.url, { headers: { 'X-Stealth-Session-Context-Options': JSON.stringify({ viewport: { width: 800, height: 600 }, colorScheme: 'dark' }) } });
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    assert.match(await evaluate(client, '() => innerWidth + "x" + innerHeight + " " + matchMedia("(prefers-color-scheme: dark)").matches'), /800x600 true/);
    await transport.terminateSession();
    await client.close();
    const unknown = await initialize(server, { contextOptions: { viewport: { width: 800, height: 600 }, bogus: 1 } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.message, /contextOptions: key "bogus" is not an allowed context option \(allowed: viewport,/);
    const dangerous = await initialize(server, { contextOptions: { recordHar: { path: '/etc/passwd' } } });
    assert.equal(dangerous.status, 400);
    assert.match(dangerous.message, /key "recordHar" is not allowed: it writes files/);
  });

  test('an unpacked extension is loaded into a profile session and marks the page; without a profile the session is refused', async () => {
    const withExtensions = await startHttpServer(testEnv(output.path, { STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: JSON.stringify([extensionDir]) }));
    try {
      const noProfile = await initialize(withExtensions, {});
      assert.equal(noProfile.status, 400);
      assert.match(noProfile.message, /need a persistent profile\. Start the session with a `profile` name/);
      const { client, transport } = await httpClient(withExtensions.url, { headers: { 'X-Stealth-Session-Profile': 'with-extension' } });
      await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
      const snapshot = textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} }));
      assert.match(snapshot, /Extension marker present/);
      await transport.terminateSession();
      await client.close();
    } finally {
      await withExtensions.stop();
    }
  });

  test('conflicting or broken settings stop the start-up with the setting named and the fix', async () => {
    fs.writeFileSync(path.join(output.path, 'a-file'), 'not a directory');
    const cases: [Record<string, string>, RegExp][] = [
      [{ STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: extensionDir, PLAYWRIGHT_MCP_EXTENSION: 'true' }, /PLAYWRIGHT_MCP_EXTENSION=true .* conflicts with STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS.*Fix:/],
      [{ PLAYWRIGHT_MCP_EXTENSION: 'true' }, /PLAYWRIGHT_MCP_EXTENSION is set, but extension connection mode .* use STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS/],
      [{ STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: extensionDir }, /EXTENSION_PATHS needs a persistent profile.*Fix: set PLAYWRIGHT_MCP_USER_DATA_DIR/],
      [{ STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: output.path, PLAYWRIGHT_MCP_USER_DATA_DIR: path.join(output.path, 'udd') }, /has no readable manifest\.json \(ENOENT\)\. Fix:/],
      [{ STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: '["unclosed"' }, /STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: "\[\\"unclosed\\"" \(not valid JSON\)/],
      [{ STEALTH_PLAYWRIGHT_MCP_CONTEXT_OPTIONS: '{"storageState":"/etc/shadow"}' }, /STEALTH_PLAYWRIGHT_MCP_CONTEXT_OPTIONS: "<redacted>" \(key "storageState" is not allowed: it reads a file/],
      [{ STEALTH_PLAYWRIGHT_MCP_CONTEXT_OPTIONS: '{"viewprot":{}}' }, /key "viewprot" is not an allowed context option/],
      [{ PLAYWRIGHT_MCP_USER_DATA_DIR: path.join(output.path, 'a-file', 'profile') }, /PLAYWRIGHT_MCP_USER_DATA_DIR \(--user-data-dir\) .*a-file\/profile cannot be created \(ENOTDIR\)/],
      [{ STEALTH_PLAYWRIGHT_MCP_GEOIP_DB: path.join(output.path, 'none.mmdb') }, /GEOIP_DB \(--geoip-db\) .*none\.mmdb is not a readable file/],
    ];
    // Each start-up stops before any browser: run them side by side.
    const results = await Promise.all(cases.map(([extra]) => runCli([], testEnv(output.path, extra))));
    cases.forEach(([extra, message], i) => {
      assert.equal(results[i]!.code, 2, `${JSON.stringify(extra)}: ${results[i]!.stderr}`);
      assert.match(results[i]!.stderr, message);
    });
  });
});
