import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import { UPSTREAM_FLAGS } from '../src/config/upstream-flags.ts';
import { useSession, useSite, useTempDir } from './helpers/fixtures.ts';
import { httpClient } from './helpers/http-server.ts';
import { connect, runCli, runToEnd, serverCommand, testEnv, textOf } from './helpers/server.ts';
import { CHROMIUM, UPSTREAM_CLI, connectUpstream } from './helpers/upstream-cli.ts';
import { spawn } from 'node:child_process';
import { freePort } from './helpers/processes.ts';
import { initializeBody, MCP_HEADERS } from './helpers/http-server.ts';

interface CommanderOption {
  long: string;
  required: boolean;
  optional: boolean;
  variadic: boolean;
}

/** The live option list of the installed upstream CLI (its own commander definition). */
function upstreamOptions(): CommanderOption[] {
  const require = createRequire(UPSTREAM_CLI);
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
  const server = useSession(async () => {
    fs.writeFileSync(path.join(dir.path, 'init.js'), 'window.__initScriptRan = "yes";');
    fs.writeFileSync(path.join(dir.path, 'config.json'), JSON.stringify({ timeouts: { action: 4000 }, browser: { contextOptions: { colorScheme: 'dark' } } }));
    return connect(testEnv(path.join(dir.path, 'out')), [
      '--browser', 'chromium', '--headless', '--isolated', '--no-sandbox',
      '--caps', 'vision,pdf,devtools', '--viewport-size', '800x600', '--user-agent', 'UpstreamFlagsUA/1.0',
      '--timeout-action=3000', '--ignore-https-errors', '--init-script', path.join(dir.path, 'init.js'),
      '--snapshot-mode', 'full', '--console-level', 'info', '--config', path.join(dir.path, 'config.json'),
    ]);
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

// `--caps tabs,pdf,history,wait,files,install` was the upstream's own example in spring 2025;
// those tools are core tools now, and the upstream ignores the old names without a word.
describe('a command line with capabilities of an earlier Playwright MCP', () => {
  const dir = useTempDir('spm-upflags-former-');
  const caps = ['--caps', 'tabs,pdf,history,wait,files,install'];
  const ours = useSession(() => connect(testEnv(path.join(dir.path, 'ours')), ['--headless', '--isolated', ...caps]));
  const upstream = useSession(() => connectUpstream(path.join(dir.path, 'upstream'), caps));

  test('starts, lists the tools the upstream lists, and says the old names do nothing', async () => {
    const names = async (session: { client: { listTools(): Promise<{ tools: { name: string }[] }> } }) => (await session.client.listTools()).tools.map((t) => t.name).filter((n) => !n.startsWith('stealth_')).sort();
    const theirs = await names(upstream);
    assert.ok(theirs.includes('browser_pdf_save') && theirs.includes('browser_tabs'), theirs.join(','));
    assert.deepEqual(await names(ours), theirs);
    assert.match(ours.transport.stderr, /--caps: "tabs", "history", "wait", "files", "install" are capabilities of earlier Playwright MCP versions.*Fix: drop them/);
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
    // The upstream emulates nothing for a name it does not know, without a word.
    [['--device', 'Pixel7'], /--device: unknown device "Pixel7".*Did you mean "Pixel 7"\?/],
    [['--viewport-size', 'big'], /viewport.*Fix: correct the flag/i],
    [['--headless=1', '--mobile=yes'], /--mobile takes no value/],
    [['--idle-timeout', 'soon'], /Invalid value for --idle-timeout: "soon"\. Expected a whole number from 0/],
    [['--timeout-navigation=-1'], /Invalid value for --timeout-navigation: "-1"/],
  ];
  for (const [args, message] of cases) {
    test(args.join(' '), async () => {
      const result = await runCli(args, testEnv(dir.path));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    });
  }
  test('--isolated with --user-data-dir is refused, as the upstream CLI refuses it', async () => {
    const args = ['--isolated', '--user-data-dir', path.join(dir.path, 'profile')];
    const theirs = await runToEnd(process.execPath, [UPSTREAM_CLI, '--headless', ...args], { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' }, 30_000);
    assert.notEqual(theirs.code, 0);
    assert.match(theirs.stderr, /userDataDir is not supported in isolated mode/);
    const ours = await runCli(args, testEnv(dir.path));
    assert.equal(ours.code, 2, ours.stderr);
    assert.match(ours.stderr, /--isolated .* and --user-data-dir .* Playwright MCP refuses the pair too.*Fix: drop --isolated/);
    assert.ok(!fs.existsSync(path.join(dir.path, 'profile')), 'no profile made');
  });
  test("a config file's browser.browserName other than chromium is refused as --browser firefox is", async () => {
    const file = path.join(dir.path, 'firefox.json');
    fs.writeFileSync(file, JSON.stringify({ browser: { browserName: 'firefox' } }));
    const result = await runCli(['--config', file], testEnv(dir.path));
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /browser\.browserName in the config file \S*firefox\.json is firefox, but this server drives Chromium builds only/);
  });
  test('a config file timeout that is not a number names the file and the key', async () => {
    const file = path.join(dir.path, 'timeouts.json');
    fs.writeFileSync(file, JSON.stringify({ timeouts: { idle: '5m' } }));
    const result = await runCli(['--config', file], testEnv(dir.path));
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /Invalid value for timeouts\.idle in the config file .*timeouts\.json: "5m"/);
  });
  test('a malformed config file names the file and the problem', async () => {
    const file = path.join(dir.path, 'broken.json');
    fs.writeFileSync(file, '{ "browser": { "launchOptions": ');
    const result = await runCli(['--config', file], testEnv(dir.path));
    assert.equal(result.code, 2, result.stderr);
    assert.ok(result.stderr.includes('broken.json'), result.stderr);
  });
});

const portOutput = useTempDir('spm-port-');
test('--port and --host start the Streamable HTTP transport, as the upstream does', async () => {
  const free = await freePort();
  const [command, base] = serverCommand();
  const child = spawn(command, [...base, '--port', String(free), '--host', '127.0.0.1'], { env: testEnv(portOutput.path), stdio: ['ignore', 'pipe', 'pipe'] });
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

// Only a port makes the upstream serve HTTP: a host alone (flag, variable or config file) leaves it on
// stdio, and an MCP client that launched it with such a line talks to it there.
const hostOnly = useTempDir('spm-host-only-');
test('a host without a port leaves the server on stdio, as it leaves the upstream: --host, PLAYWRIGHT_MCP_HOST, server.host', async () => {
  const file = path.join(hostOnly.path, 'host.json');
  fs.writeFileSync(file, JSON.stringify({ server: { host: '127.0.0.1' } }));
  const ways: [string, string[], Record<string, string>][] = [
    ['--host', ['--host', '127.0.0.1'], {}],
    ['PLAYWRIGHT_MCP_HOST', [], { PLAYWRIGHT_MCP_HOST: '127.0.0.1' }],
    ['server.host', ['--config', file], {}],
  ];
  for (const [way, args, env] of ways) {
    for (const side of ['upstream', 'ours'] as const) {
      const out = path.join(hostOnly.path, `${side}-${way}`);
      const session = side === 'upstream' ? await connectUpstream(out, args, env) : await connect(testEnv(out, env), ['--headless', ...args]);
      try {
        const tools = (await session.client.listTools()).tools.map((t) => t.name);
        assert.ok(tools.includes('browser_navigate'), `${side}, ${way}: tools over stdio`);
      } finally {
        await session.client.close();
        await session.transport.exit;
      }
    }
  }
});

/** The status an initialize gets under each Host header, from a server started with `args` plus `--port`. */
async function hostStatuses(command: string, args: string[], hosts: string[]): Promise<number[]> {
  const port = await freePort();
  const dir = fs.mkdtempSync('/tmp/spm-hosts-');
  const child = spawn(command, [...args, '--port', String(port)], { env: testEnv(dir), stdio: 'ignore' });
  try {
    const post = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(initializeBody());
      });
    const until = Date.now() + 30_000;
    while (!(await post(`localhost:${port}`).then(() => true, () => false))) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`${args.join(' ')}: not serving`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const statuses: number[] = [];
    for (const host of hosts) statuses.push(await post(host.replace('PORT', String(port))));
    return statuses;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("--allowed-hosts as the upstream reads it: '*' lets any Host in, a named host is let in (the upstream CLI alongside)", { timeout: 120_000 }, async () => {
  const upstream = [UPSTREAM_CLI, '--headless', '--executable-path', CHROMIUM];
  const [command, base] = serverCommand();
  for (const [allowed, hosts, expected] of [
    ['*', ['mcp.example', 'mcp.example:PORT', 'localhost:PORT'], [200, 200, 200]],
    ['mcp.example', ['mcp.example', 'other.example'], [200, 403]],
  ] as const) {
    const theirs = await hostStatuses(process.execPath, [...upstream, '--allowed-hosts', allowed], [...hosts]);
    const ours = await hostStatuses(command, [...base, '--allowed-hosts', allowed], [...hosts]);
    assert.deepEqual(theirs, expected, `upstream, --allowed-hosts ${allowed}`);
    assert.deepEqual(ours, expected, `ours, --allowed-hosts ${allowed}`);
  }
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

/** The config a browser_get_config result prints. */
const resolvedConfigOf = (text: string) => JSON.parse(text.match(/### Result\n([\s\S]*?)(\n###|$)/)![1]!) as { browser: { isolated?: boolean; launchOptions: { args: string[]; executablePath?: string }; contextOptions: { viewport?: unknown } } };

test('browser_get_config (--caps config) shows the launch the session really gets: the stealth switches, the executable, the viewport', async () => {
  const dir = fs.mkdtempSync('/tmp/spm-getconfig-');
  const server = await connect(testEnv(dir), ['--caps', 'config', '--browser-prelaunch=false']);
  try {
    const text = textOf(await server.client.callTool({ name: 'browser_get_config', arguments: {} }));
    const config = resolvedConfigOf(text);
    assert.ok(config.browser.launchOptions.args.some((a: string) => a.startsWith('--fingerprint=')), text);
    assert.equal(config.browser.launchOptions.executablePath, CHROMIUM);
    assert.deepEqual(config.browser.contextOptions.viewport, { width: 1920, height: 947 });
  } finally {
    await server.client.close().catch(() => {});
    await server.transport.exit;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The upstream prints `isolated: true` under --isolated and leaves it unset for
// its persistent profile; ours hands the upstream false (it must take our
// context) and used to print that, --isolated or not. Unset, ours keeps the
// profile in memory where the upstream keeps one on disk (a documented
// difference), and says true.
test('browser_get_config says isolated as the upstream CLI does with --isolated and --user-data-dir, and true for our in-memory default (alongside)', async () => {
  const dir = fs.mkdtempSync('/tmp/spm-getconfig-iso-');
  try {
    const cases = [['--isolated', ['--isolated'], [true, true]], ['--user-data-dir', ['--user-data-dir', path.join(dir, 'profile')], [undefined, undefined]], ['neither', [], [undefined, true]]] as const;
    for (const [label, args, expected] of cases) {
      const read: (boolean | undefined)[] = [];
      for (const side of ['upstream', 'ours'] as const) {
        const out = fs.mkdtempSync(path.join(dir, `${side}-`));
        const server = side === 'upstream' ? await connectUpstream(out, ['--caps', 'config', ...args], {}, { isolated: false }) : await connect(testEnv(out), ['--caps', 'config', '--browser-prelaunch=false', ...args]);
        try {
          read.push(resolvedConfigOf(textOf(await server.client.callTool({ name: 'browser_get_config', arguments: {} }))).browser.isolated);
        } finally {
          await server.client.close().catch(() => {});
          await server.transport.exit;
        }
      }
      assert.deepEqual(read, expected, `${label}: [upstream, ours]`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
