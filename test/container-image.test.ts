import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { httpClient } from './helpers/http-server.ts';
import { hardenedRunFlags, podman, podmanSync, PODMAN_GLOBAL } from './helpers/podman.ts';
import { freePort, waitFor } from './helpers/processes.ts';
import { startReleaseServer, VERSION } from './helpers/release-server.ts';
import { RecordingStdioTransport, ROOT, runToEnd, textOf } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';

// The real image: built with podman from the Containerfile (debootstrap base,
// cached), run with runc, a read-only root and the documented writable paths.
// Building takes minutes the first time (Debian's chromium is ~200 MB of
// packages); later builds reuse podman's layer cache. STEALTH_TEST_IMAGE names
// a prebuilt image and skips the build; STEALTH_TEST_SKIP_IMAGE=1 skips this file.

const IMAGE = process.env.STEALTH_TEST_IMAGE ?? 'localhost/stealth-playwright-mcp:test';
const RUN_ARGS = ['--browser-engine', 'playwright'];
// Emoji, CJK, Thai, unifont, FreeFont, URW base 35 (the vendor's baseline), Liberation, DejaVu.
const IMAGE_FONTS = ['Noto Color Emoji', 'Noto Sans CJK SC', 'Garuda', 'Unifont', 'FreeSans', 'Nimbus Sans', 'Liberation Sans', 'DejaVu Sans'];
let site: Site;
const containers: string[] = [];

const skip = process.env.STEALTH_TEST_SKIP_IMAGE === '1' ? 'STEALTH_TEST_SKIP_IMAGE=1' : false;

before(async () => {
  if (skip) return;
  if (!process.env.STEALTH_TEST_IMAGE) {
    const started = Date.now();
    execFileSync('sh', [path.join(ROOT, 'scripts', 'container', 'build-image.sh'), IMAGE], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 40 * 60_000 });
    process.stderr.write(`# image built in ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
  site = await startSite();
}, { timeout: 45 * 60_000 });

after(async () => {
  for (const name of containers) await podman(['rm', '-f', '-t', '0', name]);
  await site?.close();
});

function containerName(what: string): string {
  const name = `spm-test-${what}-${process.pid}`;
  containers.push(name);
  return name;
}

test('the image: distroless, non-root, labelled, with its volume, defaults and health check', { skip }, () => {
  const config = JSON.parse(podmanSync(['image', 'inspect', '--format', '{{json .Config}}', IMAGE])) as {
    User: string;
    Env: string[];
    Volumes: Record<string, unknown>;
    Labels: Record<string, string>;
    Entrypoint: string[];
  };
  // podman keeps the Docker-format HEALTHCHECK beside the OCI config.
  const health = JSON.parse(podmanSync(['image', 'inspect', '--format', '{{json .HealthCheck}}', IMAGE])) as { Test: string[]; Interval: number; Timeout: number; Retries: number };
  assert.equal(config.User, '1000:1000');
  assert.ok('/data' in config.Volumes);
  for (const e of ['PLAYWRIGHT_MCP_HEADLESS=true', 'PLAYWRIGHT_MCP_OUTPUT_DIR=/data', 'STEALTH_PLAYWRIGHT_MCP_NO_SANDBOX=true', 'STEALTH_PLAYWRIGHT_MCP_STEALTH_ARGS=true', 'STEALTH_PLAYWRIGHT_MCP_CONSOLE_FALLBACK=true', 'STEALTH_CACHE_DIR=/home/node/.stealth']) {
    assert.ok(config.Env.includes(e), e);
  }
  for (const label of ['source', 'revision', 'version', 'licenses', 'base.name', 'base.digest']) assert.ok(config.Labels[`org.opencontainers.image.${label}`], label);
  assert.match(config.Labels['org.opencontainers.image.base.digest']!, /^sha256:[0-9a-f]{64}$/);
  assert.deepEqual(health.Test, ['CMD', '/usr/local/bin/stealth-playwright-mcp', 'health']);
  assert.equal(health.Interval, 2e9);
  assert.equal(health.Timeout, 3e9);
  assert.equal(health.Retries, 2);
  assert.deepEqual(config.Entrypoint.slice(-2), ['/usr/local/bin/stealth-playwright-mcp', 'launcher']);
});

test('the image has no shell and no package manager', { skip }, async () => {
  for (const [entrypoint, args] of [['/bin/sh', ['-c', 'echo hi']], ['/bin/bash', []], ['/usr/bin/apt-get', ['--version']], ['/usr/bin/dpkg', ['--version']]] as const) {
    const result = await podman(['run', '--rm', '--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768', '--network', 'none', '--entrypoint', entrypoint, IMAGE, ...args]);
    assert.notEqual(result.code, 0, `${entrypoint} ran: ${result.stdout}`);
    assert.doesNotMatch(result.stdout, /hi|apt|dpkg/);
  }
});

test('stdio: an MCP client drives the container over stdin/stdout (read-only root), and pages see the vendor\'s font baseline', { skip }, async () => {
  const name = containerName('stdio');
  const started = Date.now();
  const transport = new RecordingStdioTransport('podman', [...PODMAN_GLOBAL, ...hardenedRunFlags(name), '-i', IMAGE, ...RUN_ARGS], { PATH: process.env.PATH ?? '' });
  const client = new Client({ name: 'image-test', version: '1.0.0' });
  await client.connect(transport);
  const tools = await client.listTools();
  process.stderr.write(`# stdio: container start to tools/list in ${Date.now() - started} ms\n`);
  assert.ok(tools.tools.some((t) => t.name === 'browser_navigate'));
  const nav = await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
  assert.ok(!nav.isError, textOf(nav));
  // The font baseline the stealth build's vendor ships, detected the way fingerprinting scripts do it:
  // a family is there when text set in it measures differently from every generic fallback.
  const fonts = await client.callTool({ name: 'browser_evaluate', arguments: { function: `() => {
    const c = document.createElement('canvas').getContext('2d');
    const width = (font) => { c.font = '32px ' + font; return c.measureText('mmmmmlli 中文字 ไทย 😀 ᚠ').width; };
    const families = ${JSON.stringify(IMAGE_FONTS)};
    return families.filter((f) => ['monospace', 'serif', 'sans-serif'].some((g) => width('"' + f + '", ' + g) !== width(g)));
  }` } });
  assert.deepEqual(JSON.parse(textOf(fonts).match(/### Result\n([\s\S]*?)\n###/)?.[1] ?? '[]'), IMAGE_FONTS, textOf(fonts));
  const shot = await client.callTool({ name: 'browser_take_screenshot', arguments: {} });
  assert.ok(!shot.isError, textOf(shot));
  assert.match(textOf(shot), /\/data\//, 'artifacts go to /data');
  // A link to an outside application leaves the tab taking input: the image's
  // /bin/sh stand-in answers Chromium's xdg-settings question (app-link-guard.ts).
  await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/app-link` } });
  const refOf = async (label: string) => textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} })).match(new RegExp(`"${label}"[^\\n]*\\[ref=([a-z0-9]+)\\]`))?.[1];
  await client.callTool({ name: 'browser_click', arguments: { element: 'Join in the app', target: await refOf('Join in the app') } });
  const after = await client.callTool({ name: 'browser_click', arguments: { element: 'After the link', target: await refOf('After the link') } });
  assert.match(textOf(after), /Page Title: clicked after the link/, textOf(after));
  await transport.close();
  const exit = await transport.exit!;
  assert.equal(exit.code, 0, transport.stderr);
  assert.deepEqual(transport.nonJsonLines, []);
});

test('HTTP: probes, a headless and a headed session, the health command, and a clean stop', { skip }, async () => {
  const name = containerName('http');
  const port = await freePort();
  const started = Date.now();
  const child = spawn('podman', [...PODMAN_GLOBAL, ...hardenedRunFlags(name), IMAGE, ...RUN_ARGS, '--transport', 'streamable-http', '--http-port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    assert.ok(await waitFor(() => stdout.includes('\n'), 60_000), `no URL: ${stderr}`);
    const url = stdout.split('\n')[0]!.trim();
    process.stderr.write(`# HTTP: container start to listening in ${Date.now() - started} ms\n`);
    const origin = new URL(url).origin;
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
    assert.equal((await fetch(`${origin}/readyz`)).status, 200);

    const before = await podman(['exec', name, '/usr/local/bin/stealth-playwright-mcp', 'health']);
    process.stderr.write(`# health command (podman exec) in ${before.ms} ms\n`);
    assert.equal(before.code, 0, before.stdout + before.stderr);
    assert.equal(before.stdout.trim(), 'healthy: server ok, display not started');

    const headless = await httpClient(url);
    const nav = await headless.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    assert.ok(!nav.isError, textOf(nav));
    assert.doesNotMatch(stderr, /display :\d+ ready/, 'a headless session starts no display');

    const headed = await httpClient(url, { headers: { 'x-stealth-session-headless': 'false' } });
    const headedNav = await headed.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    assert.ok(!headedNav.isError, textOf(headedNav));
    assert.match(stderr, /display :\d+ ready/, 'the headed session started the display');
    const info = await headed.client.callTool({ name: 'stealth_bridge_info', arguments: {} });
    assert.match(textOf(info), /"headless": ?false/);

    const after = await podman(['exec', name, '/usr/local/bin/stealth-playwright-mcp', 'health']);
    assert.equal(after.code, 0, after.stdout + after.stderr);
    assert.equal(after.stdout.trim(), 'healthy: server ok, display ok');
    const check = await podman(['healthcheck', 'run', name]);
    assert.equal(check.code, 0, `HEALTHCHECK: ${check.stdout}${check.stderr}`);

    const stop = await podman(['stop', '-t', '25', name], 60_000);
    process.stderr.write(`# podman stop in ${stop.ms} ms\n`);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(await exit, 0, stderr);
    assert.match(stderr, /launcher: shutting down \(received SIGTERM\)/);
  } finally {
    child.kill();
  }
});

test('--with-build: the stealth build is downloaded and verified at image build time; the first session starts with no network', { skip, timeout: 30 * 60_000 }, async () => {
  const tag = 'localhost/stealth-playwright-mcp:test-with-build';
  const release = await startReleaseServer({ launcher: 'static' });
  try {
    // Asynchronously: the release server answers from this process.
    const built = await runToEnd('sh', [path.join(ROOT, 'scripts', 'container', 'build-image.sh'), '--with-build', tag], { ...(process.env as Record<string, string>), STEALTH_DOWNLOAD_URL: release.url, STEALTH_TEST_TRUSTED_KEY: release.publicKey }, 25 * 60_000);
    assert.equal(built.code, 0, built.stderr.slice(-4000));
    assert.equal(release.archiveRequests.length, 1, 'the build fetched the archive once');
    const name = containerName('with-build');
    // No network at all: only the prepared cache can give this session its browser.
    const transport = new RecordingStdioTransport('podman', [...PODMAN_GLOBAL, ...hardenedRunFlags(name).map((f) => (f === 'host' ? 'none' : f)), '-i', tag], { PATH: process.env.PATH ?? '' });
    const client = new Client({ name: 'image-test', version: '1.0.0' });
    await client.connect(transport);
    const nav = await client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>offline</title><h1>Prepared build</h1>' } });
    assert.ok(!nav.isError, textOf(nav));
    assert.match(textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} })), /Prepared build/);
    const info = (await client.callTool({ name: 'stealth_binary_info', arguments: {} })).structuredContent as { source: string; installed: boolean; executablePath: string; build: { version: string; verification: string } };
    assert.equal(info.source, 'cache');
    assert.equal(info.installed, true);
    assert.match(info.executablePath, /^\/home\/node\/\.stealth\/builds\//);
    assert.equal(info.build.version, VERSION);
    await transport.close();
    assert.equal((await transport.exit!).code, 0, transport.stderr);
    assert.doesNotMatch(transport.stderr, /download/i, 'nothing was downloaded at run time');
  } finally {
    await release.close();
    await podman(['rmi', '-f', tag]);
  }
});
