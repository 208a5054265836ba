import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { httpClient } from './helpers/http-server.ts';
import { displayOf, fixtureChild, runHealth, startLauncher } from './helpers/launcher.ts';
import { isAlive, waitFor } from './helpers/processes.ts';
import { connect, runCli, testEnv, textOf } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';

// The container launcher as a plain process, with Debian's Xvfb and Chromium:
// the real server as its child, except where a test needs a child no real
// server would be (ignores SIGTERM, never answers).

let site: Site;
before(async () => (site = await startSite()));
after(async () => await site?.close());

// Without the warm pool: these tests count each session's browsers.
const HTTP = ['--transport', 'streamable-http', '--http-port', '0', '--http-prewarm', '0'];

test('headless-only sessions never start Xvfb; health is healthy without a display', async () => {
  const launcher = startLauncher(HTTP);
  try {
    const url = await launcher.firstLine;
    const { client } = await httpClient(url);
    const nav = await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    assert.ok(!nav.isError, textOf(nav));
    assert.equal(launcher.browsers().length, 1, 'the session has its browser');
    assert.deepEqual(launcher.xvfbs(), [], 'no Xvfb for headless sessions');
    assert.equal(fs.statSync(launcher.healthSocket).mode & 0o777, 0o600, 'the health socket is owner-only');
    const health = await runHealth(launcher.healthSocket);
    assert.equal(health.code, 0, health.stdout);
    assert.match(health.stdout, /^healthy: server ok, display not started$/);
    assert.deepEqual(launcher.xvfbs(), [], 'the health check starts nothing');
  } finally {
    const { code } = await launcher.stop();
    assert.equal(code, 0, launcher.stderr());
  }
  assert.ok(!fs.existsSync(launcher.healthSocket), 'the health socket is removed on shutdown');
});

test('the first headed session starts one Xvfb, a second shares it; Xvfb dying takes the launcher down', async () => {
  const launcher = startLauncher(HTTP);
  let stopped = false;
  try {
    const url = await launcher.firstLine;
    const headed = { headers: { 'x-stealth-session-headless': 'false' } };
    const first = await httpClient(url, headed);
    const second = await httpClient(url, headed);
    // Both ask at once: the launcher starts the display once for both.
    const navs = await Promise.all(
      [first, second].map(({ client }) => client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } })),
    );
    for (const nav of navs) assert.ok(!nav.isError, textOf(nav));
    const xvfbs = launcher.xvfbs();
    assert.equal(xvfbs.length, 1, 'exactly one Xvfb');
    const browsers = launcher.browsers();
    assert.equal(browsers.length, 2, 'one browser per session');
    const displays = new Set(browsers.map(displayOf));
    assert.equal(displays.size, 1, 'both browsers on the same display');
    assert.match([...displays][0] ?? '', /^:\d+$/);
    for (const nav of navs) assert.doesNotMatch(textOf(nav), /HeadlessChrome/);

    const health = await runHealth(launcher.healthSocket);
    assert.equal(health.code, 0, health.stdout);
    assert.match(health.stdout, /^healthy: server ok, display ok$/);

    process.kill(xvfbs[0]!, 'SIGKILL');
    const exit = await launcher.exit;
    stopped = true;
    assert.notEqual(exit.code, 0, 'a dead display is a failed container');
    assert.match(launcher.stderr(), /display: Xvfb \(display :\d+\) was killed by SIGKILL/);
    assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 10_000), 'no browser outlives the launcher');
  } finally {
    if (!stopped) await launcher.stop();
  }
});

test('a stdio server runs under the launcher with stdin/stdout untouched; its exit status is the launcher\'s', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-launcher-stdio-'));
  const { client, transport } = await connect(
    testEnv(path.join(dir, 'out'), { STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET: path.join(dir, 'health.sock') }),
    ['launcher'],
  );
  try {
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'stealth_bridge_info'));
    const info = await client.callTool({ name: 'stealth_bridge_info', arguments: {} });
    assert.match(textOf(info), /"transport": ?"stdio"/);
    await transport.close();
    const exit = await transport.exit!;
    assert.equal(exit.code, 0, transport.stderr);
    assert.deepEqual(transport.nonJsonLines, [], 'nothing but JSON-RPC on stdout');
    assert.match(transport.stderr, /launcher: the server exited \(status 0\)/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('health: unhealthy without a launcher, with a server that does not answer, and when the launcher does not reply', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-health-'));
  try {
    const missing = await runHealth(path.join(dir, 'none.sock'));
    assert.equal(missing.code, 1);
    assert.match(missing.stdout, /^unhealthy: cannot reach the launcher's health socket .*ENOENT/);

    const launcher = startLauncher([], fixtureChild('mute'));
    try {
      assert.ok(await waitFor(() => launcher.stderr().includes('child: ready'), 20_000), launcher.stderr());
      const mute = await runHealth(launcher.healthSocket);
      assert.equal(mute.code, 1, mute.stdout);
      assert.equal(mute.stdout, 'unhealthy: server no answer within 750 ms, display not started');
    } finally {
      await launcher.stop();
    }

    // A socket that accepts and never replies: the command gives up on its own (2.5 s), well before the orchestrator's 3 s kill.
    const silentPath = path.join(dir, 'silent.sock');
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(silentPath, resolve));
    try {
      const result = await runHealth(silentPath);
      assert.equal(result.code, 1);
      assert.match(result.stdout, /^unhealthy: no answer from the launcher within 2500 ms/);
      assert.ok(result.ms >= 2_000, `gave up after ${result.ms} ms, not before its 2.5 s`);
    } finally {
      silent.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('health: a display that stops answering is unhealthy, and healthy again once it answers', async () => {
  const launcher = startLauncher([], fixtureChild('headed'));
  try {
    assert.ok(await waitFor(() => /child: display .*"ok":true/.test(launcher.stderr()), 20_000), launcher.stderr());
    const [xvfb] = launcher.xvfbs();
    assert.ok(xvfb);
    assert.equal((await runHealth(launcher.healthSocket)).stdout, 'healthy: server ok, display ok');
    process.kill(xvfb, 'SIGSTOP');
    try {
      const stuck = await runHealth(launcher.healthSocket);
      assert.equal(stuck.code, 1);
      assert.equal(stuck.stdout, 'unhealthy: server ok, display no answer within 1 s');
    } finally {
      process.kill(xvfb, 'SIGCONT');
    }
    const again = await runHealth(launcher.healthSocket);
    assert.equal(again.code, 0, again.stdout);
  } finally {
    const { code } = await launcher.stop();
    assert.equal(code, 0, launcher.stderr());
  }
});

test('shutdown: server first, SIGKILL after it ignores SIGTERM, then the display; status of the killed server', async () => {
  const launcher = startLauncher([], fixtureChild('stubborn'));
  assert.ok(await waitFor(() => /child: display .*"ok":true/.test(launcher.stderr()), 20_000), launcher.stderr());
  const [xvfb] = launcher.xvfbs();
  assert.ok(xvfb, 'the display request started Xvfb');
  const started = Date.now();
  launcher.child.kill('SIGTERM');
  const exit = await launcher.exit;
  const elapsed = Date.now() - started;
  const log = launcher.stderr();
  assert.equal(exit.code, 128 + os.constants.signals.SIGKILL, log);
  const order = ['launcher: SIGTERM to server', 'child: ignoring SIGTERM', 'ignored SIGTERM for 8 s; sending SIGKILL', 'launcher: SIGTERM to Xvfb'].map((line) => log.indexOf(line));
  assert.ok(order.every((i) => i >= 0), log);
  assert.deepEqual([...order].sort((a, b) => a - b), order, `in this order:\n${log}`);
  assert.ok(elapsed >= 7_000 && elapsed < 60_000, `the server had its 8 s grace (took ${elapsed} ms)`);
  assert.ok(!isAlive(xvfb), 'Xvfb is gone');
});

test('the launcher\'s settings are validated like every other: the error names the setting, the value and the fix', async () => {
  const result = await runCli(['launcher', '--xvfb-screen', '10x10'], testEnv(os.tmpdir()));
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /--xvfb-screen: "?10x10"?\. Expected WIDTHxHEIGHTxDEPTH.*Fix: set STEALTH_PLAYWRIGHT_MCP_XVFB_SCREEN or --xvfb-screen/);
  const env = await runCli(['launcher'], testEnv(os.tmpdir(), { STEALTH_PLAYWRIGHT_MCP_XVFB_SCREEN: '1920x1080x7' }));
  assert.equal(env.code, 2, env.stderr);
  assert.match(env.stderr, /STEALTH_PLAYWRIGHT_MCP_XVFB_SCREEN: "?1920x1080x7"?/);
});
