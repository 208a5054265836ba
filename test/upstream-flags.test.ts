import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UPSTREAM_FLAGS } from '../src/config/upstream-flags.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { httpClient } from './helpers/http-server.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, RecordingStdioTransport, ROOT, runCli, serverCommand, testEnv, textOf, type Connected } from './helpers/server.ts';
import { CHROMIUM, connectUpstream } from './helpers/upstream-cli.ts';
import { spawn } from 'node:child_process';
import net from 'node:net';

interface CommanderOption {
  long: string;
  required: boolean;
  optional: boolean;
  variadic: boolean;
}

/** The live option list of the installed upstream CLI (its own commander definition). */
function upstreamOptions(): CommanderOption[] {
  const require = createRequire(path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js'));
  const { program } = require('playwright-core/lib/utilsBundle');
  const { tools } = require('playwright-core/lib/coreBundle');
  const command = new program.constructor();
  tools.decorateMCPCommand(command, '0');
  return command.options;
}

test('every flag of the installed @playwright/mcp is mapped or explained here, with the same value syntax', () => {
  const live = upstreamOptions();
  assert.ok(live.length >= 50, `the upstream lists ${live.length} flags`);
  const missing = live.map((o) => o.long.slice(2)).filter((name) => !UPSTREAM_FLAGS[name]);
  assert.deepEqual(missing, [], 'upstream flags this server neither maps nor explains (add them to src/config/upstream-flags.ts)');
  for (const o of live) {
    const arity = o.variadic ? 'variadic' : o.required || o.optional ? 'one' : 'none';
    assert.equal(UPSTREAM_FLAGS[o.long.slice(2)]!.arity, arity, `--${o.long.slice(2)} takes ${arity}`);
  }
  const stale = Object.keys(UPSTREAM_FLAGS).filter((name) => !live.some((o) => o.long === `--${name}`));
  assert.deepEqual(stale, [], 'flags listed here that the upstream no longer has');
});

describe('an MCP client launched with an upstream command line and config file', () => {
  const site = useSite();
  const dir = useTempDir('spm-upflags-');
  let server: Connected;

  before(async () => {
    fs.writeFileSync(path.join(dir.path, 'init.js'), 'window.__initScriptRan = "yes";');
    fs.writeFileSync(path.join(dir.path, 'config.json'), JSON.stringify({ timeouts: { action: 4000 }, browser: { contextOptions: { colorScheme: 'dark' } } }));
    server = await connect(testEnv(path.join(dir.path, 'out')), [
      '--browser', 'chromium', '--headless', '--isolated', '--no-sandbox',
      '--caps', 'vision,pdf,devtools', '--viewport-size', '800x600', '--user-agent', 'UpstreamFlagsUA/1.0',
      '--timeout-action=3000', '--ignore-https-errors', '--init-script', path.join(dir.path, 'init.js'),
      '--snapshot-mode', 'full', '--console-level', 'info', '--config', path.join(dir.path, 'config.json'),
    ]);
  });
  after(async () => {
    await server?.client.close();
    await server?.transport.exit;
  });

  test('the capabilities are on, and the viewport, user agent, init script and config file reach the page', async () => {
    const tools = (await server.client.listTools()).tools.map((t) => t.name);
    for (const name of ['browser_mouse_click_xy', 'browser_pdf_save', 'browser_start_tracing']) assert.ok(tools.includes(name), `${name} in ${tools.join(',')}`);
    await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    const probe = textOf(await server.client.callTool({
      name: 'browser_evaluate',
      arguments: { function: '() => [innerWidth, innerHeight, navigator.userAgent, window.__initScriptRan, matchMedia("(prefers-color-scheme: dark)").matches].join("|")' },
    }));
    assert.match(probe, /800\|600\|UpstreamFlagsUA\/1\.0\|yes\|true/);
    assert.deepEqual(server.transport.nonJsonLines, []);
  });
});

describe('upstream flags: bad input exits 2 with the fix, nothing starts', () => {
  const dir = useTempDir('spm-upflags-bad-');
  const cases: [string[], RegExp][] = [
    [['--caps', 'vison'], /unknown capability "vison".*Valid values: .*vision/],
    [['--brwoser', 'chromium'], /Unknown flag --brwoser\. Did you mean --browser\?/],
    [['--browser', 'firefox'], /selects firefox, but this server drives Chromium builds only/],
    [['--extension'], /--extension is a Playwright MCP flag this server cannot honour: extension connection mode/],
    [['--codegen', 'cobol'], /cobol.*Fix: correct the flag/],
    [['--viewport-size', 'big'], /viewport.*Fix: correct the flag/i],
    [['--headless=1', '--mobile=yes'], /--mobile takes no value/],
  ];
  for (const [args, message] of cases) {
    test(args.join(' '), async () => {
      const result = await runCli(args, testEnv(dir.path));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    });
  }
  test('a malformed config file names the file and the problem', async () => {
    const file = path.join(dir.path, 'broken.json');
    fs.writeFileSync(file, '{ "browser": { "launchOptions": ');
    const result = await runCli(['--config', file], testEnv(dir.path));
    assert.equal(result.code, 2, result.stderr);
    assert.ok(result.stderr.includes('broken.json'), result.stderr);
  });
});

test('--port and --host start the Streamable HTTP transport, as the upstream does', async () => {
  const free = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const [command, base] = serverCommand();
  const child = spawn(command, [...base, '--port', String(free), '--host', '127.0.0.1'], { env: testEnv(fs.mkdtempSync('/tmp/spm-port-')), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => resolve(c.toString().split('\n')[0]!.trim()));
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.equal(url, `http://127.0.0.1:${free}/mcp`);
    const { client } = await httpClient(url);
    assert.ok((await client.listTools()).tools.length > 20);
    await client.close();
  } finally {
    child.kill('SIGTERM');
  }
});

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

test("a config file's server section (JSON, INI) serves Streamable HTTP on its port, as the upstream CLI does with the same file; flags and env win", async () => {
  const dir = fs.mkdtempSync('/tmp/spm-config-server-');
  const files: [string, (port: number) => string][] = [
    ['server.json', (port) => JSON.stringify({ server: { port, host: 'localhost' } })],
    ['server.ini', (port) => `[server]\nport = ${port}\nhost = localhost\n`],
    ['flat.ini', (port) => `server.port = ${port}\nserver.host = localhost\n`],
  ];
  const [command, base] = serverCommand();
  const upstreamCli = path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');
  for (const [name, text] of files) {
    for (const side of ['upstream', 'ours'] as const) {
      const port = await freePort();
      const file = path.join(dir, `${side}-${name}`);
      fs.writeFileSync(file, text(port));
      const child =
        side === 'upstream'
          ? spawn(process.execPath, [upstreamCli, '--config', file, '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--isolated', '--no-sandbox'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' }, stdio: ['ignore', 'pipe', 'pipe'] })
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

test("the vendor's CLOAKBROWSER_* variables are read as ours, and ours win", async () => {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'warn' };
  const vendorOnly = await runCli(['info', '--json'], { ...base, CLOAKBROWSER_BINARY_PATH: '/usr/lib/chromium/chromium', CLOAKBROWSER_CACHE_DIR: '/tmp/spm-vendor-cache' });
  assert.equal(vendorOnly.code, 0, vendorOnly.stderr);
  const facts = JSON.parse(vendorOnly.stdout);
  assert.equal(facts.active.path, '/usr/lib/chromium/chromium');
  assert.equal(facts.cacheDir, '/tmp/spm-vendor-cache');
  const both = await runCli(['info', '--json'], { ...base, CLOAKBROWSER_CACHE_DIR: '/tmp/spm-vendor-cache', STEALTH_CACHE_DIR: '/tmp/spm-our-cache' });
  assert.equal(JSON.parse(both.stdout).cacheDir, '/tmp/spm-our-cache');
});

test("a Playwright MCP config file's launch options reach the launcher: executablePath becomes the binary, a proxy the session proxy", async () => {
  const dir = fs.mkdtempSync('/tmp/spm-launchopts-');
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify({ browser: { launchOptions: { executablePath: CHROMIUM, args: ['--lang=de-DE'] } } }));
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', PLAYWRIGHT_MCP_OUTPUT_DIR: dir, STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'info' };
  const server = await connect(env, ['--config', file, '--browser-prelaunch=false']);
  try {
    const binary = (await server.client.callTool({ name: 'stealth_binary_info', arguments: {} })).structuredContent as Record<string, unknown>;
    assert.equal(binary.executablePath, CHROMIUM);
    assert.equal(binary.source, 'custom');
    const launch = ((await server.client.callTool({ name: 'stealth_bridge_info', arguments: {} })).structuredContent as { session: { launch: { args: string[] } } }).session.launch;
    assert.ok(launch.args.includes('--lang=de-DE'), 'launchOptions.args reach the browser');
  } finally {
    await server.client.close();
    await server.transport.exit;
  }
  // The proxy from the config file is the session's proxy, checked like ours: a dead one stops the start with the reason.
  fs.writeFileSync(file, JSON.stringify({ browser: { launchOptions: { executablePath: CHROMIUM, proxy: { server: 'http://127.0.0.1:1', username: 'u', password: 'secret-pw' } } } }));
  const refused = await runCli(['--config', file], env);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /Proxy http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:1 .*failed its check: .*ECONNREFUSED/);
  assert.ok(!refused.stderr.includes('secret-pw'));
  fs.rmSync(dir, { recursive: true, force: true });
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
      const upstreamArgs = [path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js'), '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--no-sandbox', '--output-dir', out, '--config', file];
      const start = async (): Promise<Connected> => {
        if (side === 'ours') return connect(testEnv(out), ['--config', file]);
        const transport = new RecordingStdioTransport(process.execPath, upstreamArgs, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' });
        const client = new Client({ name: 'stealth-test-client', version: '1.0.0' });
        await client.connect(transport);
        return { client, transport };
      };
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

test('browser_get_config (--caps config) shows the launch the session really gets: the stealth switches, the executable, the viewport', async () => {
  const dir = fs.mkdtempSync('/tmp/spm-getconfig-');
  const server = await connect(testEnv(dir), ['--caps', 'config', '--browser-prelaunch=false']);
  try {
    const text = textOf(await server.client.callTool({ name: 'browser_get_config', arguments: {} }));
    const config = JSON.parse(text.match(/### Result\n([\s\S]*?)(\n###|$)/)![1]!);
    assert.ok(config.browser.launchOptions.args.some((a: string) => a.startsWith('--fingerprint=')), text);
    assert.equal(config.browser.launchOptions.executablePath, CHROMIUM);
    assert.deepEqual(config.browser.contextOptions.viewport, { width: 1920, height: 947 });
  } finally {
    await server.client.close().catch(() => {});
    await server.transport.exit;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
