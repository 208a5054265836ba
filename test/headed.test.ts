import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { httpClient, startHttpServer } from './helpers/http-server.ts';
import { commandLine, descendants } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';
import { startSite, type Site } from './helpers/site.ts';
import { startDisplay, type Display } from './helpers/display.ts';

let xvfb: Display;
let display: string;
let site: Site;

before(async () => {
  site = await startSite();
  xvfb = await startDisplay();
  display = xvfb.name;
});
after(async () => {
  xvfb?.stop();
  await site?.close();
});

// A client that asks for a headed browser gets one (on a virtual display here),
// while the process default stays headless.
test('a session with headless false runs a headed browser on the display', async () => {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-headed-'));
  const server = await startHttpServer(testEnv(outputDir, { DISPLAY: display }));
  try {
    const headed = await httpClient(server.url, { headers: { 'x-stealth-session-headless': 'false' } });
    const nav = await headed.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    assert.ok(!nav.isError, textOf(nav));
    const commandLines = server.browsers().map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    const main = commandLines.find((c) => !c.includes('--type='));
    assert.ok(main && !main.includes('--headless'), 'the browser runs headed');
    const headless = await httpClient(server.url);
    await headless.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    const mains = server.browsers().map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).filter((c) => !c.includes('--type='));
    assert.equal(mains.filter((c) => c.includes('--headless')).length, 1, 'the other session stays headless');
  } finally {
    await server.stop();
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
});

// What a page reads of WebGL, posted back: an unautomated Chromium is read the same way.
const WEBGL_PAGE = `<!doctype html><title>webgl</title><script>
  const gl = document.createElement('canvas').getContext('webgl');
  const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
  const seen = gl ? String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) : 'no webgl';
  fetch('/report', { method: 'POST', body: seen }).then(() => (document.title = 'reported'));
</script>`;

test('headed on a stock Chromium, WebGL reads as on an unautomated one under the same display (no software renderer shown by name)', async () => {
  const reports: string[] = [];
  const waiters: ((seen: string) => void)[] = [];
  const page = http.createServer((req, res) => {
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        reports.push(body);
        waiters.shift()?.(body);
        res.end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(WEBGL_PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/webgl`;
  const report = () => Promise.race([new Promise<string>((resolve) => waiters.push(resolve)), new Promise<string>((_, reject) => setTimeout(() => reject(new Error('no report within 20 s')), 20_000))]);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-control-'));
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-headed-webgl-'));
  try {
    const controlSeen = report();
    const control = spawn(process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium', ['--no-sandbox', '--no-first-run', '--disable-background-networking', `--user-data-dir=${profile}`, url], { stdio: 'ignore', detached: true, env: { ...process.env, DISPLAY: display, TMPDIR: profile } });
    const unautomated = await controlSeen.finally(() => {
      try {
        process.kill(-control.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    const server = await startHttpServer(testEnv(outputDir, { DISPLAY: display }));
    try {
      const headed = await httpClient(server.url, { headers: { 'x-stealth-session-headless': 'false' } });
      const oursSeen = report();
      await headed.client.callTool({ name: 'browser_navigate', arguments: { url } });
      assert.equal(await oursSeen, unautomated);
      assert.doesNotMatch(unautomated, /SwiftShader/i);
    } finally {
      await server.stop();
    }
  } finally {
    page.close();
    fs.rmSync(outputDir, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
});

// Over stdio the upstream CLI runs headed where there is a display, unless told
// --headless (its config file's launchOptions.headless decides too): so do we.
test('stdio on a display, no --headless: headed, as the upstream CLI with the same command line; --headless: headless', async () => {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-stdio-headed-'));
  const browserMain = (pid: number) => descendants(pid).map(commandLine).find((line) => line.includes('--remote-debugging-pipe') && !line.includes('--type='));
  const headedOf = async (server: Connected): Promise<boolean> => {
    await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    const line = browserMain(server.transport.pid!);
    assert.ok(line, 'a browser runs');
    return !line.includes('--headless');
  };
  // No --headless of its own: the display decides, unless the compared command line says --headless.
  const upstream = (extra: string[]): Promise<Connected> => connectUpstream(outputDir, extra, { DISPLAY: display }, { headless: false });
  const seen: Record<string, boolean> = {};
  try {
    for (const [label, extra] of [['default', []], ['--headless', ['--headless']]] as const) {
      for (const side of ['upstream', 'ours'] as const) {
        const server = side === 'upstream' ? await upstream([...extra]) : await connect(testEnv(outputDir, { DISPLAY: display }), [...extra]);
        try {
          seen[`${side} ${label}`] = await headedOf(server);
        } finally {
          await closeAll([server]);
        }
      }
    }
    assert.deepEqual(seen, { 'upstream default': true, 'ours default': true, 'upstream --headless': false, 'ours --headless': false });
  } finally {
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
});
