import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { commandLine, isAlive, waitFor } from './helpers/processes.ts';
import { connect, runCli, testEnv, textOf } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

type Caller = { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> };

// A fresh upstream session has no tab until a tool needs one. These first
// calls read differently when a tab is already open (select 0 would work,
// `new` would make a second tab, a snapshot would succeed).
const FIRST_CALLS: [string, Record<string, unknown>][] = [
  ['browser_tabs', { action: 'select', index: 0 }],
  ['browser_snapshot', {}],
  ['browser_tabs', { action: 'close' }],
  ['browser_tabs', { action: 'new' }],
  ['browser_tabs', { action: 'list' }],
];

async function firstCalls(client: Caller): Promise<string[]> {
  const out: string[] = [];
  for (const [name, args] of FIRST_CALLS) {
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean };
    out.push(`${name} ${JSON.stringify(args)} -> ${result.isError ? 'error' : 'ok'}: ${textOf(result)}`);
  }
  return out;
}

type Info = { session: { browserRunning: boolean; launch: { prelaunched: boolean; seed: number } }; warmPool: { size: number; ready: number; launching: number; taken: number } | null };

async function readyz(server: HttpServer) {
  return (await (await fetch(server.url.replace(/\/mcp$/, '/readyz'))).json()) as { warmPool?: { ready: number; taken: number; launching: number } };
}

async function poolReady(server: HttpServer, ready: number, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await readyz(server)).warmPool?.ready === ready) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const info = async (client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }) =>
  ((await client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: Info }).structuredContent;

/** Top-level browser processes of the server (direct children running Chromium). */
function browserRoots(server: HttpServer): number[] {
  return server.browsers().filter((pid) => commandLine(pid).includes('--remote-debugging-pipe') && !commandLine(pid).includes('--type='));
}

/**
 * After tools/list and no browser tool: the browser runs (or not, as
 * `expected`), and a browser launched ahead changes nothing the upstream
 * CLI's first calls show (its page opened ahead is no tab until a tool opens one).
 */
async function expectPrelaunch(client: Caller & { listTools(): Promise<unknown> }, expected: boolean, dir: string): Promise<void> {
  await client.listTools();
  const running = async () => (await info(client)).session.browserRunning;
  if (expected) {
    const deadline = Date.now() + 15_000;
    while (!(await running()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  } else await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await running(), expected);
  if (!expected) return;
  const upstream = await connectUpstream(dir);
  const upstreamCalls = await firstCalls(upstream.client);
  await upstream.client.close();
  assert.deepEqual(await firstCalls(client), upstreamCalls, 'the page opened ahead is no tab until a tool opens one, as with the upstream CLI');
}

describe('HTTP warm pool (--http-prewarm)', () => {
  const output = useTempDir('spm-warm-');
  let server: HttpServer;

  before(async () => {
    fs.mkdirSync(path.join(output.path, 'tmp'));
    server = await startHttpServer(testEnv(output.path, { TMPDIR: path.join(output.path, 'tmp') }), ['--http-prewarm', '2']);
  });
  after(async () => {
    await server?.stop();
  });

  test('the pool fills before any client comes, and /readyz shows it', async () => {
    assert.ok(await poolReady(server, 2), 'two browsers launched ahead');
    assert.equal(browserRoots(server).length, 2);
  });

  test('a default session takes a warm browser (its own seed), the pool refills; a session with its own settings launches its own', async () => {
    const seeds: number[] = [];
    for (let i = 0; i < 3; i++) {
      assert.ok(await poolReady(server, 2));
      const { client, transport } = await httpClient(server.url);
      const facts = await info(client);
      assert.equal(facts.session.browserRunning, true, 'running before the first browser tool');
      assert.equal(facts.session.launch.prelaunched, true);
      seeds.push(facts.session.launch.seed);
      await transport.terminateSession();
      await client.close();
      // Never reused: the refill is a new browser.
      assert.ok(await poolReady(server, 2), 'the pool refilled to 2');
    }
    assert.equal(new Set(seeds).size, 3, `a fresh fingerprint seed each time: ${seeds}`);
    const custom = await httpClient(server.url, { headers: { 'X-Stealth-Session-Headless': 'true' } });
    const own = await info(custom.client);
    assert.equal(own.warmPool!.taken, 3, 'a session with its own settings gets its own browser, not a warm one');
    assert.ok(!seeds.includes(own.session.launch.seed));
    await custom.transport.terminateSession();
    await custom.client.close();
  });

  test('a burst that empties the pool refills it a few launches at a time, not all at once', async () => {
    assert.ok(await poolReady(server, 2));
    // Both warm browsers taken at once: two refills are due.
    const burst = await Promise.all([httpClient(server.url), httpClient(server.url)]);
    const atOnce = Math.max(1, Math.floor(os.availableParallelism() / 2));
    let most = 0;
    const deadline = Date.now() + 30_000;
    let pool = (await readyz(server)).warmPool!;
    while (pool.ready < 2 && Date.now() < deadline) {
      most = Math.max(most, pool.launching);
      await new Promise((r) => setTimeout(r, 20));
      pool = (await readyz(server)).warmPool!;
    }
    assert.equal(pool.ready, 2, 'refilled');
    assert.ok(most >= 1 && most <= atOnce, `at most ${atOnce} launching at once while the clients work; saw ${most}`);
    for (const { client, transport } of burst) {
      await transport.terminateSession();
      await client.close();
    }
  });

  test('the refill waits for the client that took a warm browser: no launch competes with its first navigate', async () => {
    const site = http.createServer((_req, res) => setTimeout(() => res.end('<title>slow</title>'), 1500));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      assert.ok(await poolReady(server, 2));
      const { client, transport } = await httpClient(server.url);
      const navigate = client.callTool({ name: 'browser_navigate', arguments: { url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/` } });
      // The page answers after 1.5 s: the navigate is still running here.
      await new Promise((r) => setTimeout(r, 400));
      const during = (await readyz(server)).warmPool!;
      assert.deepEqual([during.ready, during.launching], [1, 0], `no refill while the first navigate runs: ${JSON.stringify(during)} ${server.stderr().slice(-1500)}`);
      const nav = await navigate;
      assert.ok(!nav.isError, JSON.stringify(nav).slice(0, 600));
      assert.ok(await poolReady(server, 2), 'refilled once the navigate was answered');
      await transport.terminateSession();
      await client.close();
    } finally {
      site.close();
    }
  });

  test('a warm browser that dies is replaced without any session noticing, and leaves nothing in TMPDIR', async () => {
    assert.ok(await poolReady(server, 2));
    // The browsers of the sessions before this test may still be closing: the victim is a pool browser.
    assert.ok(await waitFor(() => browserRoots(server).length === 2, 10_000), 'only the pool browsers run');
    const [victim] = browserRoots(server);
    const profile = /--user-data-dir=(\S+)/.exec(commandLine(victim!))![1]!;
    // Chromium makes its socket dir early in its start, not always before it answers Playwright.
    assert.ok(await waitFor(() => fs.existsSync(path.join(profile, 'SingletonSocket')), 5000), 'the warm browser has its socket dir');
    const socketDir = path.dirname(fs.readlinkSync(path.join(profile, 'SingletonSocket')));
    assert.equal(path.dirname(socketDir), path.join(output.path, 'tmp'));
    process.kill(victim!, 'SIGKILL');
    assert.ok(await waitFor(() => !isAlive(victim!), 5000));
    // A killed Chromium cannot remove its singleton-socket dir; the server does, with the profile.
    assert.ok(await waitFor(() => !fs.existsSync(socketDir) && !fs.existsSync(profile), 5000), `left: ${socketDir} ${profile}`);
    assert.ok(await poolReady(server, 2), 'replaced');
    assert.ok(!browserRoots(server).includes(victim!));
    const { client, transport } = await httpClient(server.url);
    const nav = await client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>after</title>' } });
    assert.ok(!nav.isError, JSON.stringify(nav).slice(0, 600));
    await transport.terminateSession();
    await client.close();
  });

  test('a warm session\'s first calls read as the upstream CLI\'s: its page opened ahead is not a tab until a tool opens one', async () => {
    const upstream = await connectUpstream(output.path);
    const expected = await firstCalls(upstream.client);
    await upstream.client.close();
    assert.ok(await poolReady(server, 2));
    const { client, transport } = await httpClient(server.url);
    assert.equal((await info(client)).session.launch.prelaunched, true, 'a warm browser');
    assert.deepEqual(await firstCalls(client), expected);
    await transport.terminateSession();
    await client.close();
  });

  test('shutdown takes the pool browsers with it', async () => {
    const before = server.browsers();
    assert.ok(before.length > 0);
    await server.stop();
    assert.ok(await waitFor(() => before.every((pid) => !isAlive(pid)), 5000), `left: ${before.filter(isAlive)}`);
  });
});

// A session that takes a warm browser opens its first page during its handshake.
test('a shutdown while a session\'s first page is still opening: exit 0 without running into the shutdown deadline, no browser left', async () => {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-warm-stop-'));
  try {
    for (let run = 0; run < 2; run++) {
      const server = await startHttpServer(testEnv(output), ['--http-prewarm', '1']);
      assert.ok(await poolReady(server, 1));
      await httpClient(server.url);
      const browsers = server.browsers();
      await server.stop();
      assert.deepEqual(await server.exit, { code: 0, signal: null }, server.stderr());
      assert.doesNotMatch(server.stderr(), /shutdown took longer|exiting anyway/, `run ${run}`);
      assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 5000), `left: ${browsers.filter(isAlive)}`);
    }
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
});

describe('HTTP warm pool at the session cap', () => {
  const output = useTempDir('spm-warm-cap-');
  let server: HttpServer;
  before(async () => {
    server = await startHttpServer(testEnv(output.path), ['--http-prewarm', '1', '--http-session-max', '2']);
  });
  after(async () => {
    await server?.stop();
  });

  test('no warm browser waits for a session that cannot start; one is back when a session ends', async () => {
    assert.ok(await poolReady(server, 1));
    const first = await httpClient(server.url);
    assert.ok(await poolReady(server, 1), 'one more session can start: refilled');
    const second = await httpClient(server.url);
    assert.equal((await info(second.client)).session.launch.prelaunched, true, 'the second took the warm browser');
    // At the cap: the pool stays empty, and only the sessions' browsers run.
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual((await readyz(server)).warmPool, { size: 1, ready: 0, launching: 0, taken: 2 });
    assert.equal(browserRoots(server).length, 2, 'two browsers for two sessions, none spare');
    await first.transport.terminateSession();
    await first.client.close();
    assert.ok(await poolReady(server, 1), 'a slot is free again: refilled');
    await second.transport.terminateSession();
    await second.client.close();
  });
});

describe('HTTP: a session the pool cannot serve launches its browser while the client handshakes', () => {
  const output = useTempDir('spm-http-prelaunch-');
  for (const [label, args, expected] of [
    ['with the pool on', ['--http-prewarm', '1'], true],
    ['not with --browser-prelaunch=false', ['--http-prewarm', '1', '--browser-prelaunch=false'], false],
    ['not with the pool off (--http-prewarm 0)', ['--http-prewarm', '0'], false],
  ] as const) {
    test(label, async () => {
      const server = await startHttpServer(testEnv(output.path), [...args]);
      try {
        // Settings of its own: the pool's browser cannot be its browser.
        const { client, transport } = await httpClient(server.url, { headers: { 'X-Stealth-Session-Headless': 'true' } });
        await expectPrelaunch(client, expected, output.path);
        await transport.terminateSession();
        await client.close();
      } finally {
        await server.stop();
      }
    });
  }
});

describe('stdio: the browser launches while the client handshakes', () => {
  const output = useTempDir('spm-prelaunch-');
  for (const [label, args, expected] of [
    ['by default', [], true],
    ['not with --browser-prelaunch=false', ['--browser-prelaunch=false'], false],
  ] as const) {
    test(label, async () => {
      const server = await connect(testEnv(output.path), [...args]);
      await expectPrelaunch(server.client, expected, output.path);
      await server.client.close();
      await server.transport.exit;
    });
  }
});

test('bad --http-prewarm values are refused with the reason', async () => {
  const dir = '/tmp';
  const tooMany = await runCli(['--transport', 'streamable-http', '--http-prewarm', '8', '--http-session-max', '4'], testEnv(dir));
  assert.equal(tooMany.code, 2);
  assert.match(tooMany.stderr, /--http-prewarm .* is 8, more than --http-session-max \(4\).*Fix:/);
  const negative = await runCli(['--http-prewarm', '-1'], testEnv(dir));
  assert.equal(negative.code, 2);
  assert.match(negative.stderr, /--http-prewarm/);
});
