import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { httpClient, startHttpServer } from './helpers/http-server.ts';
import { isAlive, waitFor } from './helpers/processes.ts';
import { connect, testEnv, textOf, localInfo } from './helpers/server.ts';
import { CHROMIUM } from './helpers/upstream-cli.ts';

interface Target {
  url: string;
  type: string;
}

// Attach mode: a browser the user runs, reached over CDP. The server uses it,
// closes only what it created, and never kills it.
describe('attach mode (--cdp-endpoint): a browser you run', () => {
  const site = useSite();
  const output = useTempDir('spm-attach-');
  let chromium: ChildProcess;
  let endpoint: string;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-attach-profile-'));
  const pages = async () => ((await (await fetch(`${endpoint}/json/list`)).json()) as Target[]).filter((t) => t.type === 'page').map((t) => t.url);

  before(async () => {
    chromium = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', '--disable-background-networking', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: profile } });
    const ws = await new Promise<string>((resolve) => chromium.stderr!.on('data', (c: Buffer) => {
      const match = c.toString().match(/ws:\/\/[^\s]+/);
      if (match) resolve(match[0]);
    }));
    endpoint = `http://127.0.0.1:${new URL(ws).port}`;
  });
  after(async () => {
    if (chromium && chromium.exitCode === null) {
      const exited = new Promise((resolve) => chromium.once('exit', resolve));
      chromium.kill('SIGKILL');
      await exited;
    }
    // Chromium's helper processes may still write into the profile for a moment after the browser dies.
    await waitFor(() => {
      try {
        fs.rmSync(profile, { recursive: true, force: true });
        return true;
      } catch {
        return false;
      }
    }, 5000, 200);
  });

  test('stdio: the tools run in the browser\'s own context, as upstream; the server leaves, the browser stays, tabs it opened are closed', async () => {
    const before = (await pages()).length;
    const server = await connect(testEnv(output.path, { STEALTH_BINARY_PATH: '' }), ['--cdp-endpoint', endpoint, '--cdp-header', 'X-Test: 1']);
    const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
    assert.ok(!nav.isError, textOf(nav));
    assert.ok((await pages()).includes(`${site.url}/second`), 'the page opened in the attached browser');
    await server.client.callTool({ name: 'browser_tabs', arguments: { action: 'new', url: `${site.url}/` } });
    assert.equal((await pages()).length, before + 1, 'a new tab of the session');
    const info = (await localInfo(server.client));
    assert.equal(info.session.launch.attached.kind, 'cdp');
    assert.equal(info.session.launch.attached.ownContext, false);
    assert.equal(info.session.launch.stealthArgs, false, 'no fingerprint guarantee for a browser we did not launch');
    await server.client.close();
    assert.deepEqual(await server.transport.exit, { code: 0, signal: null });
    assert.ok(isAlive(chromium.pid!), 'the attached browser is still running');
    // As under the upstream CLI, the tools drive the browser's existing tab; tabs the session opened are closed.
    assert.ok((await pages()).length <= before, `no page of the session left: ${await pages()}`);
  });

  test('HTTP: each session gets its own context on the attached browser (cookies do not cross)', async () => {
    const server = await startHttpServer(testEnv(output.path, { STEALTH_BINARY_PATH: '' }), ['--cdp-endpoint', endpoint]);
    try {
      const a = await httpClient(server.url);
      const b = await httpClient(server.url);
      await a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
      await a.client.callTool({ name: 'browser_evaluate', arguments: { function: '() => { document.cookie = "who=a"; }' } });
      await b.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
      const cookie = textOf(await b.client.callTool({ name: 'browser_evaluate', arguments: { function: '() => document.cookie' } }));
      assert.doesNotMatch(cookie, /who=a/);
      const info = (await localInfo(b.client));
      assert.equal(info.session.launch.attached.ownContext, true);
      for (const c of [a, b]) {
        await c.transport.terminateSession();
        await c.client.close();
      }
      assert.ok(isAlive(chromium.pid!));
      assert.deepEqual(server.browsers(), [], 'the server launched no browser of its own');
    } finally {
      await server.stop();
    }
    assert.ok(isAlive(chromium.pid!), 'still running after the server stopped');
  });

  test('an endpoint nobody listens on: the first tool says so', async () => {
    const server = await connect(testEnv(output.path, { STEALTH_BINARY_PATH: '' }), ['--cdp-endpoint', 'http://127.0.0.1:1', '--cdp-timeout', '3000']);
    const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    assert.equal(nav.isError, true);
    assert.match(textOf(nav), /ECONNREFUSED|connect/i);
    await server.client.close();
    await server.transport.exit;
  });
});
