import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { markdownTable, upstreamFlagsTable } from '../src/config/reference.ts';
import { settings } from '../src/config/settings.ts';
import { ROOT, runCli, testEnv } from './helpers/server.ts';

describe('CLI: --help, --version, doctor, README', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-cli-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('--help lists every flag with its env name and default', async () => {
    const { code, stdout } = await runCli(['--help'], testEnv(dir));
    assert.equal(code, 0);
    for (const s of Object.values(settings)) {
      assert.match(stdout, new RegExp(`--${s.flag}\\b`), s.flag);
      assert.match(stdout, new RegExp(`env ${s.env}; default ${(s.default ?? '(unset)').replace(/[()]/g, '\\$&')}`), s.env);
    }
    assert.match(stdout, /serve/);
    assert.match(stdout, /doctor/);
  });

  test('--version prints the package version', async () => {
    const { code, stdout } = await runCli(['--version'], testEnv(dir));
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(code, 0);
    assert.equal(stdout.trim(), pkg.version);
  });

  test('doctor --json reports runtime, packages and the browser, exit 0', async () => {
    const { code, stdout } = await runCli(['doctor', '--json'], testEnv(dir));
    assert.equal(code, 0, stdout);
    const report = JSON.parse(stdout);
    // Only Playwright's ffmpeg (video) may be missing here: a warning, not an error.
    assert.deepEqual(report.checks.filter((c: { status: string }) => c.status !== 'ok').map((c: { name: string }) => c.name).filter((n: string) => n !== 'video'), []);
    assert.notEqual(report.status, 'error');
    assert.equal(report.package.name, 'stealth-playwright-mcp');
    assert.ok(['node', 'bun'].includes(report.runtime.name));
    assert.equal(report.runtime.supported, true);
    assert.equal(report.packages.upstream.name, '@playwright/mcp');
    assert.equal(report.packages.upstreamCore.version, report.packages.bridgeCore.version, 'one playwright-core');
    assert.match(report.browser.version, /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(report.browser.source, 'custom');
    for (const name of ['runtime', 'upstream', 'playwright-core', 'config', 'output-dir', 'browser'])
      assert.equal(report.checks.find((c: { name: string }) => c.name === name)?.status, 'ok', name);
  });

  test('doctor exits 1 with a hint when the browser is missing', async () => {
    const { code, stdout } = await runCli(['doctor'], { ...testEnv(dir), STEALTH_BINARY_PATH: path.join(dir, 'missing') });
    assert.equal(code, 1);
    assert.match(stdout, /\[ERROR\] browser: .*does not exist/);
  });

  test('doctor with the playwright engine finds a system Chromium', async () => {
    const { code, stdout } = await runCli(['--browser-engine', 'playwright', 'doctor', '--json'], { ...testEnv(dir), STEALTH_BINARY_PATH: '' });
    assert.equal(code, 0, stdout);
    const report = JSON.parse(stdout);
    assert.equal(report.browser.engine, 'playwright');
    assert.ok(['system', 'playwright'].includes(report.browser.source));
  });

  test('the reference tables in docs/ are generated from the schema and the upstream flag table (npm run docs)', () => {
    const reference = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
    assert.ok(reference.includes(markdownTable()), 'docs/configuration.md out of date: run npm run docs');
    const compat = fs.readFileSync(path.join(ROOT, 'docs', 'playwright-mcp-compat.md'), 'utf8');
    assert.ok(compat.includes(upstreamFlagsTable()), 'docs/playwright-mcp-compat.md out of date: run npm run docs');
  });
});
