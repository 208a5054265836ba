import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { binaryPath, releaseBuild } from './helpers/release-build.ts';
import { startReleaseServer, type ReleaseServer } from './helpers/static-release-server.ts';
import { ROOT, runToEnd, type Finished } from './helpers/server.ts';

const INSTALL_SH = path.join(ROOT, 'install.sh');
const ASSET = 'stealth-playwright-mcp-linux-x64';
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

// `sh` is dash on Debian: the script must be plain POSIX sh.
function sh(args: string[], env: Record<string, string>): Promise<Finished> {
  return runToEnd('sh', [INSTALL_SH, ...args], env, 120_000);
}

// install.sh against a release host on 127.0.0.1 serving real release directories.
describe('install.sh', () => {
  let root: string;
  let server: ReleaseServer;
  let home: string;

  /** A release directory: the given asset files plus the SHA256SUMS build.ts would write (or `sums`). */
  function release(name: string, files: Record<string, string>, sums?: string): string {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const [asset, source] of Object.entries(files)) fs.copyFileSync(source, path.join(dir, asset));
    fs.writeFileSync(path.join(dir, 'SHA256SUMS'), sums ?? fs.readFileSync(path.join(path.dirname(files[ASSET]!), 'SHA256SUMS'), 'utf8'));
    return `${server.url}/${name}`;
  }

  const env = (extra: Record<string, string> = {}) => ({ PATH: '/usr/bin:/bin', HOME: home, ...extra });
  const prefix = (name: string) => path.join(home, name);
  const leftovers = (bin: string) => fs.readdirSync(bin).filter((f) => f.startsWith('.'));

  before(async () => {
    const built = await releaseBuild();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-install-'));
    home = path.join(root, 'home');
    fs.mkdirSync(home);
    server = await startReleaseServer(root);
    release('good', { [ASSET]: binaryPath('linux-x64', built) });
    // An older release: a stand-in executable that answers --version like one.
    const old = path.join(root, 'old-build');
    fs.mkdirSync(old);
    fs.writeFileSync(path.join(old, ASSET), '#!/bin/sh\necho 0.0.1\n', { mode: 0o755 });
    const oldSum = (await import('node:crypto')).createHash('sha256').update(fs.readFileSync(path.join(old, ASSET))).digest('hex');
    fs.writeFileSync(path.join(old, 'SHA256SUMS'), `${oldSum}  ${ASSET}\n`);
    release('old', { [ASSET]: path.join(old, ASSET) });
    release('tampered', { [ASSET]: binaryPath('linux-x64', built) }, `${'0'.repeat(64)}  ${ASSET}\n`);
  });
  after(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('installs the verified binary into <prefix>/bin and says how to use it', async () => {
    const { code, stderr } = await sh(['--prefix', prefix('p1'), '--base-url', `${server.url}/good`], env());
    assert.equal(code, 0, stderr);
    const installed = path.join(prefix('p1'), 'bin', 'stealth-playwright-mcp');
    assert.ok(fs.statSync(installed).mode & 0o111);
    assert.deepEqual(fs.readFileSync(installed), fs.readFileSync(path.join(root, 'good', ASSET)));
    assert.match(stderr, /checksum ok/);
    assert.match(stderr, new RegExp(`installed stealth-playwright-mcp ${VERSION} at ${installed}`));
    assert.match(stderr, /is not on your PATH[\s\S]*export PATH=/);
    assert.match(stderr, new RegExp(`claude mcp add stealth-browser -- ${installed}`));
    assert.match(stderr, /"command": /);
    assert.deepEqual(leftovers(path.dirname(installed)), []);
  });

  test('defaults to ~/.local/bin and takes the release URL from the environment', async () => {
    const { code, stderr } = await sh([], env({ STEALTH_PLAYWRIGHT_MCP_RELEASE_URL: `${server.url}/old`, PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin` }));
    assert.equal(code, 0, stderr);
    assert.ok(fs.existsSync(path.join(home, '.local', 'bin', 'stealth-playwright-mcp')));
    assert.doesNotMatch(stderr, /not on your PATH/);
  });

  test('re-running upgrades in place with one rename', async () => {
    const bin = path.join(prefix('p2'), 'bin');
    const target = path.join(bin, 'stealth-playwright-mcp');
    assert.equal((await sh(['--prefix', prefix('p2'), '--base-url', `${server.url}/old`], env())).code, 0);
    const before = fs.statSync(target).ino;
    const { code, stderr } = await sh(['--prefix', prefix('p2'), '--base-url', `${server.url}/good`], env());
    assert.equal(code, 0, stderr);
    assert.match(stderr, new RegExp(`upgraded stealth-playwright-mcp 0.0.1 -> ${VERSION}`));
    assert.notEqual(fs.statSync(target).ino, before, 'replaced by rename, not rewritten in place');
    assert.deepEqual(fs.readFileSync(target), fs.readFileSync(path.join(root, 'good', ASSET)));
    assert.deepEqual(leftovers(bin), []);
  });

  test('a checksum mismatch installs nothing and says what to do', async () => {
    const bin = path.join(prefix('p3'), 'bin');
    assert.equal((await sh(['--prefix', prefix('p3'), '--base-url', `${server.url}/old`], env())).code, 0);
    const { code, stderr } = await sh(['--prefix', prefix('p3'), '--base-url', `${server.url}/tampered`], env());
    assert.equal(code, 1);
    assert.match(stderr, /error: checksum mismatch for stealth-playwright-mcp-linux-x64: expected 0{64}, got [0-9a-f]{64}/);
    assert.match(stderr, /fix: re-run to download again.*Nothing was installed/);
    assert.equal(fs.readFileSync(path.join(bin, 'stealth-playwright-mcp'), 'utf8'), '#!/bin/sh\necho 0.0.1\n', 'previous install untouched');
    assert.deepEqual(leftovers(bin), []);
  });

  test('an unsupported architecture is refused before any download, pointing at npx', async () => {
    // A uname that reports another machine, first on PATH.
    const fake = path.join(root, 'fake-uname');
    fs.mkdirSync(fake, { recursive: true });
    fs.writeFileSync(path.join(fake, 'uname'), '#!/bin/sh\ncase "$1" in -m) echo s390x ;; *) echo Linux ;; esac\n', { mode: 0o755 });
    const requests = server.requests.length;
    const { code, stderr } = await sh(['--prefix', prefix('p4'), '--base-url', `${server.url}/good`], env({ PATH: `${fake}:/usr/bin:/bin` }));
    assert.equal(code, 1);
    assert.match(stderr, /error: unsupported CPU architecture: s390x/);
    assert.match(stderr, /fix: use the npm package instead, on Node.js 22.13\+ or 24\+: npx -y stealth-playwright-mcp/);
    assert.equal(server.requests.length, requests, 'nothing downloaded');
    assert.ok(!fs.existsSync(prefix('p4')));
  });

  test('a release that cannot be downloaded names the URL and the fix', async () => {
    const { code, stderr } = await sh(['--prefix', prefix('p5'), '--base-url', `${server.url}/no-such-release`], env());
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`error: could not download ${server.url}/no-such-release/SHA256SUMS`));
    assert.match(stderr, /fix: check your network.*--base-url/);
  });

  test('an unknown argument prints the usage and fails', async () => {
    const { code, stderr } = await sh(['--frobnicate'], env());
    assert.equal(code, 1);
    assert.match(stderr, /Usage: install.sh/);
    assert.match(stderr, /error: unknown argument: --frobnicate/);
  });
});
