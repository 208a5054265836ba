import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { httpClient } from './helpers/http-server.ts';
import { connect, runCli, serverCommand, testEnv, textOf, type Connected } from './helpers/server.ts';
import { CHROMIUM, UPSTREAM_CLI, connectUpstream } from './helpers/upstream-cli.ts';

// A Playwright MCP config file, or command line, used as it is with the
// upstream CLI and with ours in the same run: what each serves, and what a
// page reads, must be the same.

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** An MCP client on http://localhost:<port>/mcp once something listens there (bounded). */
async function clientWhenListening(port: number, child: ReturnType<typeof spawn>): Promise<Awaited<ReturnType<typeof httpClient>>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await httpClient(`http://localhost:${port}/mcp`);
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const serverFiles = useTempDir('spm-config-server-');
test("a config file's server section (JSON, INI) serves Streamable HTTP on its port, as the upstream CLI does with the same file; flags and env win", async () => {
  const dir = serverFiles.path;
  const files: [string, (port: number) => string][] = [
    ['server.json', (port) => JSON.stringify({ server: { port, host: 'localhost' } })],
    ['server.ini', (port) => `[server]\nport = ${port}\nhost = localhost\n`],
    ['flat.ini', (port) => `server.port = ${port}\nserver.host = localhost\n`],
  ];
  const [command, base] = serverCommand();
  for (const [name, text] of files) {
    for (const side of ['upstream', 'ours'] as const) {
      const port = await freePort();
      const file = path.join(dir, `${side}-${name}`);
      fs.writeFileSync(file, text(port));
      const child =
        side === 'upstream'
          ? spawn(process.execPath, [UPSTREAM_CLI, '--config', file, '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--isolated', '--no-sandbox'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TMPDIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] })
          : spawn(command, [...base, '--config', file], { env: testEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const { client } = await clientWhenListening(port, child);
        assert.ok((await client.listTools()).tools.some((t) => t.name === 'browser_navigate'), `${side} ${name}`);
        await client.close();
      } finally {
        child.kill('SIGTERM');
      }
    }
  }
  // The file is the lowest layer: --port (and PLAYWRIGHT_MCP_PORT) win over it.
  const [fromFile, fromFlag] = [await freePort(), await freePort()];
  const file = path.join(dir, 'low.json');
  fs.writeFileSync(file, JSON.stringify({ server: { port: fromFile } }));
  const child = spawn(command, [...base, '--config', file, '--port', String(fromFlag)], { env: testEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => resolve(c.toString().split('\n')[0]!.trim()));
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.equal(url, `http://127.0.0.1:${fromFlag}/mcp`);
  } finally {
    child.kill('SIGTERM');
  }
  const bad = path.join(dir, 'bad.json');
  fs.writeFileSync(bad, JSON.stringify({ server: { port: 'eighty' } }));
  const refused = await runCli(['--config', bad], testEnv(dir));
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /server\.port in \S*bad\.json: "eighty"/);
});

/** What a probe page function returns (JSON text) on the upstream CLI and on ours, both started with these args. */
async function probeBothSides(url: string, args: string[], probe: string, dir: string): Promise<Record<'upstream' | 'ours', unknown>> {
  const seen: Record<string, unknown> = {};
  for (const side of ['upstream', 'ours'] as const) {
    const server = side === 'upstream' ? await connectUpstream(dir, args) : await connect(testEnv(dir), args);
    try {
      await server.client.callTool({ name: 'browser_navigate', arguments: { url } });
      const text = textOf(await server.client.callTool({ name: 'browser_evaluate', arguments: { function: probe } }));
      seen[side] = JSON.parse(JSON.parse(/### Result\n(.*)/.exec(text)![1]!));
    } finally {
      await server.client.close();
    }
  }
  return seen as Record<'upstream' | 'ours', unknown>;
}

describe("a config file's context options and network filters", () => {
  const site = useSite();
  test('reach the page as under the upstream CLI with the same file: locale, timezone, user agent, viewport, geolocation, color scheme, blocked origins', async () => {
    const dir = fs.mkdtempSync('/tmp/spm-ctxopts-');
    const blocked = site.url.replace('127.0.0.1', 'localhost');
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({
      browser: { contextOptions: { locale: 'de-DE', timezoneId: 'Asia/Tokyo', userAgent: 'ConfigAgent/1.0', viewport: { width: 800, height: 600 }, geolocation: { latitude: 10, longitude: 20 }, permissions: ['geolocation'], colorScheme: 'dark' } },
      network: { blockedOrigins: [blocked] },
    }));
    const probe = `async () => JSON.stringify({
      language: navigator.language, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, userAgent: navigator.userAgent, size: [innerWidth, innerHeight],
      position: await new Promise((r) => navigator.geolocation.getCurrentPosition((p) => r([p.coords.latitude, p.coords.longitude]), (e) => r('error ' + e.code), { timeout: 3000 })),
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      blocked: await fetch('${blocked}/').then((r) => 'fetched ' + r.status, () => 'refused'),
    })`;
    const seen = await probeBothSides(site.url, ['--config', file], probe, dir);
    assert.deepEqual(seen.upstream, { language: 'de-DE', timezone: 'Asia/Tokyo', userAgent: 'ConfigAgent/1.0', size: [800, 600], position: [10, 20], dark: true, blocked: 'refused' });
    assert.deepEqual(seen.ours, seen.upstream);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('--device', () => {
  const site = useSite();
  test('a phone reads as under the upstream CLI: user agent and its client hints (page and worker), screen, viewport, pixel ratio, touch', async () => {
    const dir = fs.mkdtempSync('/tmp/spm-device-');
    const probe = `async () => {
      const worker = new Worker(URL.createObjectURL(new Blob(['postMessage([navigator.userAgent, navigator.userAgentData.mobile, navigator.userAgentData.platform])'], { type: 'text/javascript' })));
      const inWorker = await new Promise((r) => (worker.onmessage = (e) => r(e.data)));
      return JSON.stringify({ userAgent: navigator.userAgent, mobile: navigator.userAgentData.mobile, platform: navigator.userAgentData.platform, inWorker,
        screen: [screen.width, screen.height], viewport: [innerWidth, innerHeight], ratio: devicePixelRatio, touch: navigator.maxTouchPoints, coarse: matchMedia('(pointer: coarse)').matches });
    }`;
    const seen = (await probeBothSides(site.url, ['--device', 'Pixel 7'], probe, dir)) as Record<'upstream' | 'ours', { userAgent: string; mobile: boolean; platform: string; inWorker: unknown[] }>;
    assert.match(seen.upstream.userAgent, /Pixel 7/);
    assert.deepEqual([seen.upstream.mobile, seen.upstream.platform, seen.upstream.inWorker], [true, 'Android', [seen.upstream.userAgent, true, 'Android']]);
    assert.deepEqual(seen.ours, seen.upstream);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("a config file's browser.userDataDir", () => {
  const site = useSite();
  test('keeps the profile between starts, as the upstream CLI keeps it with the same file', async () => {
    const dir = fs.mkdtempSync('/tmp/spm-udd-');
    const out = path.join(dir, 'out');
    const read = '() => localStorage.getItem("kept") ?? "nothing"';
    for (const side of ['upstream', 'ours'] as const) {
      const profile = path.join(dir, `${side}-profile`);
      const file = path.join(dir, `${side}.json`);
      fs.writeFileSync(file, JSON.stringify({ browser: { userDataDir: profile } }));
      // The upstream without --isolated: a profile of its own is what the file asks for.
      const start = (): Promise<Connected> => (side === 'ours' ? connect(testEnv(out), ['--config', file]) : connectUpstream(out, ['--config', file], {}, { isolated: false }));
      const seen: string[] = [];
      for (const write of [true, false]) {
        const server = await start();
        try {
          await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
          const result = await server.client.callTool({ name: 'browser_evaluate', arguments: { function: write ? '() => { localStorage.setItem("kept", "yes"); return "set"; }' : read } });
          seen.push(/### Result\n"?([a-z]+)"?/.exec(textOf(result))?.[1] ?? textOf(result));
          // The upstream CLI flushes the profile only when its browser closes (a client that just hangs up loses it).
          await server.client.callTool({ name: 'browser_close', arguments: {} });
        } finally {
          await server.client.close();
          await server.transport.exit;
        }
      }
      assert.deepEqual(seen, ['set', 'yes'], `${side}: the second start reads what the first wrote`);
      assert.ok(fs.readdirSync(profile).includes('Default'), `${side}: the profile is in the named dir`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("a config file's contextOptions.recordHar", () => {
  const site = useSite();
  test('writes the HAR when the browser closes, as the upstream CLI does with the same file', async () => {
    const dir = fs.mkdtempSync('/tmp/spm-har-');
    for (const side of ['upstream', 'ours'] as const) {
      const har = path.join(dir, `${side}.har`);
      const file = path.join(dir, `${side}.json`);
      fs.writeFileSync(file, JSON.stringify({ browser: { contextOptions: { recordHar: { path: har } } } }));
      const server = side === 'upstream' ? await connectUpstream(dir, ['--config', file]) : await connect(testEnv(dir), ['--config', file]);
      try {
        await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
        await server.client.callTool({ name: 'browser_close', arguments: {} });
      } finally {
        await server.client.close();
      }
      const entries = (JSON.parse(fs.readFileSync(har, 'utf8')) as { log: { entries: { request: { url: string } }[] } }).log.entries;
      assert.ok(entries.some((e) => e.request.url.startsWith(site.url)), `${side}: the HAR holds the page's request`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
