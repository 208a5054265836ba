import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startReleaseServer, VALID_KEY, VERSION, type ReleaseServer } from './helpers/release-server.ts';
import { runCli, runToEnd, testEnv } from './helpers/server.ts';
import { UPSTREAM_CLI } from './helpers/upstream-cli.ts';

describe('login, logout, info; custom binary errors', () => {
  let release: ReleaseServer;
  let work: string;
  let cache: string;
  before(async () => {
    release = await startReleaseServer();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-login-'));
    cache = path.join(work, 'cache');
  });
  after(async () => {
    await release.close();
    fs.rmSync(work, { recursive: true, force: true });
  });
  const env = (extra: Record<string, string> = {}) =>
    testEnv(path.join(work, 'out'), { STEALTH_BINARY_PATH: '', STEALTH_CACHE_DIR: cache, STEALTH_TEST_VENDOR_URL: release.url, ...extra });
  const noKeyAnywhere = (r: { stdout: string; stderr: string }) => assert.ok(!(r.stdout + r.stderr).includes(VALID_KEY), 'the key is never printed');

  test('login <key> checks the key with the vendor and saves it 0600, printing it masked', async () => {
    const r = await runCli(['login', VALID_KEY], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Saved licence cb_\*\*\*\*cdef \(plan solo, expires 2099/);
    noKeyAnywhere(r);
    const file = path.join(cache, 'license.key');
    assert.equal(fs.readFileSync(file, 'utf8').trim(), VALID_KEY);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  test('install downloads and verifies the build now (stdout: the executable, progress on stderr); info then lists it; a second install downloads nothing', async () => {
    const own = path.join(work, 'install-cache');
    const e = testEnv(path.join(work, 'out'), { STEALTH_BINARY_PATH: '', STEALTH_CACHE_DIR: own, STEALTH_DOWNLOAD_URL: release.url, STEALTH_TEST_TRUSTED_KEY: release.publicKey });
    const before = release.archiveRequests.length;
    const r = await runCli(['install'], e);
    assert.equal(r.code, 0, r.stderr);
    const executable = r.stdout.trim();
    assert.ok(executable.startsWith(path.join(own, 'builds')) && fs.existsSync(executable), r.stdout);
    assert.equal(release.archiveRequests.length, before + 1);
    const info = JSON.parse((await runCli(['info', '--json'], e)).stdout);
    assert.equal(info.installed.length, 1);
    const again = await runCli(['install'], e);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), executable);
    assert.equal(release.archiveRequests.length, before + 1, 'already installed: no second download');
    const other = await runCli(['install', '--browser-engine', 'playwright'], e);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /nothing to download/);
  });

  // The upstream's `install-browser` line, as Dockerfiles keep it: here it installs the browser this server runs.
  test('install-browser chrome --with-deps installs the stealth build as install does, and says what the installer flag does not do here', async () => {
    const own = path.join(work, 'install-browser-cache');
    const e = testEnv(path.join(work, 'out'), { STEALTH_BINARY_PATH: '', STEALTH_CACHE_DIR: own, STEALTH_DOWNLOAD_URL: release.url, STEALTH_TEST_TRUSTED_KEY: release.publicKey });
    const r = await runCli(['install-browser', 'chrome', '--with-deps'], e);
    assert.equal(r.code, 0, r.stderr);
    const executable = r.stdout.trim();
    assert.ok(executable.startsWith(path.join(own, 'builds')) && fs.existsSync(executable), r.stdout);
    assert.match(r.stderr, /install-browser: --with-deps: Playwright's installer flags/);
    const given = await runCli(['install-browser', 'firefox'], { ...e, STEALTH_BINARY_PATH: '/usr/lib/chromium/chromium' });
    assert.equal(given.code, 0, 'a setup step does not fail when there is nothing to fetch');
    assert.match(given.stderr, /install-browser: nothing to download/);
  });

  test('install-browser with --browser-engine playwright runs the installer the upstream runs: --dry-run prints the same', async () => {
    const theirs = await runToEnd(process.execPath, [UPSTREAM_CLI, 'install-browser', '--dry-run', 'chromium'], { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root' }, 60_000);
    const ours = await runCli(['install-browser', '--dry-run', 'chromium', '--browser-engine', 'playwright'], env());
    assert.equal(theirs.code, 0, theirs.stderr);
    assert.equal(ours.code, 0, ours.stderr);
    assert.match(theirs.stdout, /Install location:/);
    assert.equal(ours.stdout, theirs.stdout);
  });

  test('info --json shows the licence masked, the pin and nothing installed; no network', async () => {
    const r = await runCli(['info', '--json'], env({ STEALTH_TEST_VENDOR_URL: 'http://127.0.0.1:1' }));
    assert.equal(r.code, 0, r.stderr);
    noKeyAnywhere(r);
    const info = JSON.parse(r.stdout);
    assert.deepEqual(info.licence.source, 'file');
    assert.equal(info.licence.key, 'cb_****cdef');
    assert.equal(info.pinned.version, VERSION);
    assert.equal(info.tier, 'keyed', 'a saved key selects the keyed build');
    assert.deepEqual(info.installed, []);
    assert.equal(info.active, null);
    assert.equal(info.update.autoUpdate, false);
    const text = await runCli(['info'], env());
    assert.match(text.stdout, /licence: +cb_\*\*\*\*cdef from .*license\.key/);
    noKeyAnywhere(text);
  });

  test('login refuses a key the vendor rejects, and saves nothing', async () => {
    const other = path.join(work, 'other-cache');
    const r = await runCli(['login', 'cb_wrong_key_000000000000'], env({ STEALTH_CACHE_DIR: other }));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not valid.*nothing was saved/);
    assert.ok(!r.stderr.includes('cb_wrong_key_000000000000'));
    assert.ok(!fs.existsSync(path.join(other, 'license.key')));
  });

  test('login without a key and without a terminal says the key is required', async () => {
    const r = await runCli(['login'], env());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /needs the key as an argument when stdin is not a terminal/);
  });

  test('login with the vendor unreachable fails with the fix; --no-verify saves offline', async () => {
    const other = path.join(work, 'offline-cache');
    const down = await runCli(['login', VALID_KEY], env({ STEALTH_CACHE_DIR: other, STEALTH_TEST_VENDOR_URL: 'http://127.0.0.1:1' }));
    assert.equal(down.code, 1);
    assert.match(down.stderr, /licence check .*--no-verify/);
    noKeyAnywhere(down);
    const offline = await runCli(['--cache-dir', other, 'login', '--no-verify', VALID_KEY], env({ STEALTH_TEST_VENDOR_URL: 'http://127.0.0.1:1' }));
    assert.equal(offline.code, 0, offline.stderr);
    assert.match(offline.stdout, /without checking it/);
    assert.equal(fs.statSync(path.join(other, 'license.key')).mode & 0o777, 0o600);
  });

  test('logout removes the saved key; a second logout has nothing to do', async () => {
    const r = await runCli(['logout'], env());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Removed the saved licence/);
    assert.ok(!fs.existsSync(path.join(cache, 'license.key')));
    const again = await runCli(['logout'], env());
    assert.match(again.stdout, /nothing to do/);
    const info = JSON.parse((await runCli(['info', '--json'], env())).stdout);
    assert.equal(info.licence.source, 'none');
    assert.equal(info.tier, 'keyless');
  });

  test('an invalid STEALTH_LICENSE_KEY is refused at startup without echoing it', async () => {
    const r = await runCli(['info'], env({ STEALTH_LICENSE_KEY: 'has spaces in it' }));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /STEALTH_LICENSE_KEY: "<redacted>"/);
    assert.ok(!r.stderr.includes('has spaces'));
  });

  // A wrong custom binary stops the server at startup, before any client talks to it.
  const custom = (name: string, content: string | Buffer, mode = 0o755) => {
    const file = path.join(work, name);
    fs.writeFileSync(file, content, { mode });
    return file;
  };
  for (const [name, make, message] of [
    ['missing', () => path.join(work, 'nope'), /does not exist/],
    ['not executable', () => custom('plain', '#!/bin/sh\necho hi\n', 0o644), /not executable/],
    ['wrong architecture', () => custom('arm', Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(11), Buffer.from([0xb7, 0x00]), Buffer.alloc(64)])), /a arm64 program, but this machine is x64|an? arm64 program/],
    ['not Chromium', () => custom('liar', '#!/bin/sh\necho "hello"\n'), /does not look like Chromium/],
  ] as const) {
    test(`custom binary ${name}: the server exits 2 at startup with the fix`, async () => {
      const r = await runCli([], env({ STEALTH_BINARY_PATH: make() }));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /--binary-path/);
      assert.equal(r.stdout, '');
    });
  }
});
