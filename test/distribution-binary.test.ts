import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { canHideBuildTree, hiddenTreeWrapper, pathWithoutNodeModules } from './helpers/isolation.ts';
import { failures, runSuite } from './helpers/nested-suite.ts';
import { binaryPath, releaseBuild, TARGETS } from './helpers/release-build.ts';
import { closeAll, RecordingStdioTransport, ROOT, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

const run = promisify(execFile);

// ELF e_machine values (offset 18, little-endian) of the two Linux targets.
const ELF_MACHINE = { 'linux-x64': 62, 'linux-arm64': 183 } as const;

// The standalone binary as a user gets it: copied out of the build tree into an
// empty directory, and run with that tree (so every node_modules) hidden.
describe('standalone binary', () => {
  let release: string;
  let dir: string;
  let server: string;
  const hidden = canHideBuildTree();

  before(async () => {
    release = await releaseBuild();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-bin-'));
    const copy = path.join(dir, 'stealth-playwright-mcp');
    fs.copyFileSync(binaryPath('linux-x64', release), copy);
    fs.chmodSync(copy, 0o755);
    fs.mkdirSync(path.join(dir, 'cwd'));
    server = hidden ? hiddenTreeWrapper(dir, copy) : copy;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string> = {}) => ({ ...testEnv(path.join(dir, 'out'), extra), PATH: pathWithoutNodeModules() });
  const exec = (args: string[], extra: Record<string, string> = {}) =>
    run(server, args, { cwd: path.join(dir, 'cwd'), env: env(extra), timeout: 60_000 }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  /** The copied binary behind a connected SDK client. */
  const connectBinary = async (args: string[] = []): Promise<Connected> => {
    const transport = new RecordingStdioTransport(server, args, env());
    const client = new Client({ name: 'stealth-test-client', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
  };

  test('the build tree can be hidden (private mount namespace)', { skip: hidden ? false : 'unshare -m is not permitted here; the binary runs from an empty directory only' }, () => {
    assert.ok(hidden);
  });

  test('one binary per target with the right ELF machine, and SHA256SUMS that matches them', () => {
    const sums = fs.readFileSync(path.join(release, 'SHA256SUMS'), 'utf8').trim().split('\n');
    assert.equal(sums.length, TARGETS.length);
    for (const target of TARGETS) {
      const file = binaryPath(target, release);
      const head = Buffer.alloc(20);
      const fd = fs.openSync(file, 'r');
      fs.readSync(fd, head, 0, 20, 0);
      fs.closeSync(fd);
      assert.equal(head.subarray(0, 4).toString('latin1'), '\x7fELF', `${target} is ELF`);
      assert.equal(head[4], 2, `${target} is 64-bit`);
      assert.equal(head.readUInt16LE(18), ELF_MACHINE[target], `${target} machine`);
      assert.ok(fs.statSync(file).mode & 0o111, `${target} executable`);
      const digest = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      assert.ok(sums.includes(`${digest}  ${path.basename(file)}`), `${target} listed in SHA256SUMS`);
    }
  });

  test('--version and --help match the Node package', async () => {
    const node = (args: string[]) => run(process.execPath, [path.join(ROOT, 'dist', 'node', 'cli.mjs'), ...args]);
    assert.equal((await exec(['--version'])).stdout, (await node(['--version'])).stdout);
    const help = await exec(['--help']);
    assert.match(help.stdout, /Usage: stealth-playwright-mcp/);
    assert.equal(help.stdout, (await node(['--help'])).stdout);
  });

  test('doctor reports the bun runtime and the packages compiled in, exit 0', async () => {
    const { code, stdout } = await exec(['doctor', '--json']) as { code?: number; stdout: string };
    assert.equal(code ?? 0, 0, stdout);
    const report = JSON.parse(stdout);
    // Only Playwright's ffmpeg (video) may be missing here: a warning, not an error.
    assert.deepEqual(report.checks.filter((c: { status: string }) => c.status !== 'ok').map((c: { name: string }) => c.name).filter((n: string) => n !== 'video'), []);
    assert.notEqual(report.status, 'error');
    assert.equal(report.runtime.name, 'bun');
    assert.equal(report.packages.embedded, true);
    const upstream = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'package.json'), 'utf8'));
    assert.equal(report.packages.upstream.version, upstream.version);
    assert.equal(report.packages.upstreamCore.version, report.packages.bridgeCore.version);
  });

  test('a .env and a bunfig.toml in the working directory are not loaded', async () => {
    const cwd = path.join(dir, 'cwd');
    fs.writeFileSync(path.join(cwd, '.env'), 'STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL=from-dotenv\n');
    fs.writeFileSync(path.join(cwd, 'bunfig.toml'), 'this is not [[[ toml\n');
    try {
      const { code, stdout, stderr } = await exec(['doctor', '--json']) as { code?: number; stdout: string; stderr: string };
      assert.equal(code ?? 0, 0, stdout + stderr);
      assert.doesNotMatch(stdout + stderr, /from-dotenv|bunfig/);
    } finally {
      fs.rmSync(path.join(cwd, '.env'));
      fs.rmSync(path.join(cwd, 'bunfig.toml'));
    }
  });

  test('stealth_bridge_info reports the bun runtime', async () => {
    const binary = await connectBinary();
    const { client } = binary;
    try {
      const info = (await client.callTool({ name: 'stealth_bridge_info', arguments: {} })).structuredContent as { runtime: { name: string; version: string } };
      assert.equal(info.runtime.name, 'bun');
      assert.match(info.runtime.version, /^\d+\.\d+\.\d+/);
    } finally {
      await closeAll([binary]);
    }
  });

  // The dashboard is playwright-core's web app, not compiled in: the binary would start itself with its path as an argument.
  test('browser_annotate says the Playwright Dashboard comes with the npm package', async () => {
    const binary = await connectBinary(['--caps', 'devtools']);
    const { client } = binary;
    try {
      const result = await client.callTool({ name: 'browser_annotate', arguments: {} });
      assert.equal(result.isError, true);
      assert.match((result.content as { text: string }[])[0]!.text, /Playwright Dashboard.*standalone binary does not include\. Run the npm package/);
    } finally {
      await closeAll([binary]);
    }
  });

  // The binary's bundle is minified, Playwright's evaluate wrapper with it: ours must still know it and send the
  // agent's text compiled into the call (test/evaluate-stack.test.ts has the upstream alongside, on Node).
  test("a page function the agent's evaluate calls sees no Playwright names in its stack", async () => {
    const binary = await connectBinary();
    const { client } = binary;
    try {
      const page = `<p id=p>x</p><script>const own = document.getElementById.bind(document); document.getElementById = function (id) { window.callers = new Error().stack.split('\\n').slice(2).join(' / '); return own(id); };</script>`;
      await client.callTool({ name: 'browser_navigate', arguments: { url: `data:text/html,${encodeURIComponent(page)}` } });
      const value = textOf(await client.callTool({ name: 'browser_evaluate', arguments: { function: '() => document.getElementById("p").textContent' } }));
      assert.match(value, /### Result\n"x"/);
      const callers = textOf(await client.callTool({ name: 'browser_evaluate', arguments: { function: '() => window.callers' } }));
      assert.match(callers, /<anonymous>/);
      assert.doesNotMatch(callers.split('\n### Ran')[0]!, /UtilityScript|eval at|evaluate|playwright/i);
    } finally {
      await closeAll([binary]);
    }
  });

  // The upstream prints an evaluate's (and run_code's) value in its own process: Node's util.inspect, which the binary's runtime must match.
  test('a value JSON cannot take reads as on the upstream CLI (circles, BigInt; evaluate and run_code)', async () => {
    const values = ['() => { const a = {}; a.self = a; return a; }', '() => { const a = {x: {y: [1, {}]}}; a.x.y[1].back = a.x; return a; }', '() => [1, 2n]', '() => { const a = {}; let c = a; for (let i = 0; i < 6; i++) { c.n = {}; c = c.n; } c.back = a; return {root: a}; }'];
    const errors = async (client: Client) => {
      await client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>J</title>' } });
      const out: string[] = [];
      for (const fn of values) out.push(textOf(await client.callTool({ name: 'browser_evaluate', arguments: { function: fn } })).split('\n### Ran')[0]!);
      // browser_run_code_unsafe stringifies in a vm context of its own.
      for (const fn of values.slice(0, 3)) out.push(textOf(await client.callTool({ name: 'browser_run_code_unsafe', arguments: { code: `async (page) => (${fn})()` } })).split('\n### Ran')[0]!);
      return out;
    };
    const upstream = await connectUpstream(path.join(dir, 'out-upstream'));
    const binary = await connectBinary();
    const { client } = binary;
    try {
      const theirs = await errors(upstream.client);
      // 0.0.86 prints a value JSON cannot take with Node's util.inspect (0.0.83 failed with V8's JSON error).
      assert.match(theirs[0]!, /### Result\n<ref \*1> \{\n {2}self: \[Circular \*1\]\n\}/);
      assert.deepEqual(await errors(client), theirs);
    } finally {
      await closeAll([binary, upstream]);
    }
  });

  test('the focused end-to-end suite passes against the binary', async () => {
    const result = await runSuite(server, path.join(dir, 'cwd'), env());
    assert.equal(result.code, 0, failures(result.output));
    assert.equal(result.failed, 0);
    assert.ok(result.passed >= 15, `only ${result.passed} tests ran`);
  });

  // Bun's rmSync leaves part of a tree when another removal of it runs: the binary
  // stopped while Playwright still removed the closed sessions' profiles left some
  // of them in TMPDIR (2 of 12, every run), where the Node package left none.
  test('over HTTP: 12 sessions closed and the server stopped at once leave no profile in TMPDIR', async () => {
    const result = await runSuite(server, path.join(dir, 'cwd'), env({ STEALTH_TEST_CONCURRENT_SESSIONS: '12' }), ['test/http-concurrency.test.ts']);
    assert.equal(result.code, 0, failures(result.output));
    assert.equal(result.passed, 1);
  });
});
