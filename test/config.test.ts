import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, runCli, testEnv } from './helpers/server.ts';

// One test per class of bad input: the process stops before serving, exit 2,
// the message names the setting, the value and the fix; no stack trace, and
// nothing on stdout (an MCP client would read it as protocol).
describe('bad configuration stops the server with a clear error', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-config-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function refused(args: string[], env: Record<string, string>, ...expected: RegExp[]): Promise<void> {
    const result = await runCli(args, { ...testEnv(dir), ...env });
    assert.equal(result.code, 2, `exit code; stderr: ${result.stderr}`);
    assert.equal(result.stdout, '');
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    for (const pattern of expected) assert.match(result.stderr, pattern);
  }

  test('a boolean env var that is not a boolean word', () =>
    refused([], { PLAYWRIGHT_MCP_HEADLESS: 'maybe' }, /PLAYWRIGHT_MCP_HEADLESS/, /"maybe"/, /true\/false, 1\/0, yes\/no, on\/off/));

  test("every boolean PLAYWRIGHT_MCP_* variable the upstream reads (from its package) is refused with a value that is not a boolean word", async () => {
    const source = fs.readFileSync(path.join(ROOT, 'node_modules/playwright-core/lib/coreBundle.js'), 'utf8');
    const names = [...new Set([...source.matchAll(/envToBoolean\(e\.(PLAYWRIGHT_MCP_[A-Z_]+)\)/g)].map((m) => m[1]!))];
    assert.ok(names.includes('PLAYWRIGHT_MCP_ISOLATED'), `found: ${names}`);
    // The upstream ignores a value it cannot parse; ours must name it. EXTENSION is refused whatever its value (below).
    for (const name of names.filter((n) => n !== 'PLAYWRIGHT_MCP_EXTENSION')) await refused([], { [name]: 'maybe' }, new RegExp(name), /"maybe"/);
  });

  test('a boolean flag typo is not silently false', () =>
    refused(['--allow-unsafe-code=ture'], {}, /--allow-unsafe-code/, /"ture"/, /yes\/no/));

  test('a bad number in an upstream PLAYWRIGHT_MCP_* variable', () =>
    refused([], { PLAYWRIGHT_MCP_TIMEOUT_ACTION: 'soon' }, /PLAYWRIGHT_MCP_TIMEOUT_ACTION/, /"soon"/, /whole number/));

  test('a profile dir on a pseudo file system fails at once with the path and the reason (it used to spin a core forever)', () =>
    refused(['--user-data-dir', '/proc/forbidden'], {}, /\/proc\/forbidden cannot be created \(ENOENT\)/, /Fix:/));

  test('a setting the bridge cannot honour', () =>
    refused([], { PLAYWRIGHT_MCP_EXTENSION: 'true' }, /PLAYWRIGHT_MCP_EXTENSION/, /owns its browser/, /unset/));

  test('an unknown enum value', () => refused(['--log-level', 'verbose'], {}, /--log-level/, /"verbose"/, /silent, error, warn, info, debug, trace/));

  test('an unknown engine from the environment', () =>
    refused([], { PLAYWRIGHT_MCP_BROWSER_ENGINE: 'firefox' }, /PLAYWRIGHT_MCP_BROWSER_ENGINE/, /stealth, playwright/));

  test('malformed JSON in the upstream config file', () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, '{ "browser": { "launchOptions": ');
    return refused([], { PLAYWRIGHT_MCP_CONFIG: file }, /config file .*bad\.json, PLAYWRIGHT_MCP_CONFIG/, /JSON/i);
  });

  test('an unknown flag gets a suggestion', () => refused(['--headles'], {}, /Unknown flag --headles/, /Did you mean --headless\?/));

  test('a flag that needs a value and has none', () => refused(['--output-dir'], {}, /--output-dir needs a value/));

  test('a binary path that does not exist', () =>
    refused([], { STEALTH_BINARY_PATH: path.join(dir, 'nope') }, /--binary-path \(STEALTH_BINARY_PATH\)/, /does not exist/, /Fix:/));

  test('a binary that is not executable', () => {
    const file = path.join(dir, 'not-executable');
    fs.writeFileSync(file, '');
    fs.chmodSync(file, 0o644);
    return refused([], { STEALTH_BINARY_PATH: file }, /not executable/, /chmod \+x/);
  });

  test('a binary for another CPU architecture', () => {
    const file = path.join(dir, 'other-arch');
    const header = Buffer.alloc(64);
    header.write('\x7fELF', 0, 'latin1');
    header.writeUInt16LE(process.arch === 'arm64' ? 0x3e : 0xb7, 18);
    fs.writeFileSync(file, header, { mode: 0o755 });
    return refused([], { STEALTH_BINARY_PATH: file }, /a (x64|arm64) program, but this machine is/);
  });

  test('an executable that is not Chromium', () => {
    const file = path.join(dir, 'not-chromium');
    fs.writeFileSync(file, '#!/bin/sh\necho "hello there"\n', { mode: 0o755 });
    return refused([], { STEALTH_BINARY_PATH: file }, /does not look like Chromium/, /hello there/);
  });

  // (With no build installed the stealth engine starts and downloads at the first launch: test/build-store.test.ts.)
  test('a mirror that is not an http(s) URL, and a malformed archive hash', async () => {
    await refused([], { STEALTH_DOWNLOAD_URL: 'ftp://mirror.example/builds' }, /STEALTH_DOWNLOAD_URL/, /"ftp:\/\/mirror\.example\/builds"/, /http:\/\/ or https:\/\/ URL/);
    await refused(['--download-sha256', 'abc123'], {}, /--download-sha256/, /64 hexadecimal/);
  });

  test('a mistyped variable of ours is reported on stderr, not ignored silently', async () => {
    const result = await runCli(['doctor', '--json'], { ...testEnv(dir), STEALTH_PLAYWRIGHT_MCP_HEADLES: 'false' });
    assert.match(result.stderr, /STEALTH_PLAYWRIGHT_MCP_HEADLES is not a setting/);
    JSON.parse(result.stdout);
  });

  test('accepted boolean spellings and precedence: defaults < env < flags', async () => {
    const envOnly = JSON.parse((await runCli(['doctor', '--json'], { ...testEnv(dir), PLAYWRIGHT_MCP_HEADLESS: 'off' })).stdout);
    assert.match(envOnly.checks.find((c: { name: string }) => c.name === 'config').message, /headless false/);
    const flagWins = JSON.parse((await runCli(['doctor', '--json', '--headless', 'yes'], { ...testEnv(dir), PLAYWRIGHT_MCP_HEADLESS: 'off' })).stdout);
    assert.match(flagWins.checks.find((c: { name: string }) => c.name === 'config').message, /headless true/);
  });
});
