import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '../src/config/config-error.ts';
import { loadConfig } from '../src/config/load.ts';
import { settings } from '../src/config/settings.ts';
import { fuzzer, type Fuzz } from './helpers/fuzz.ts';
import { runCli, testEnv } from './helpers/server.ts';

// Issue 9 reliability: random values for every setting. In process, thousands
// of random environments through the one schema: each either loads or fails
// with a ConfigError that names the variable (never another error). Then the
// real CLI with a sample of the rejected ones: exit 2, a message naming the
// variable, no stack trace, nothing on stdout.

const SEED = Number(process.env.STEALTH_FUZZ_SEED ?? 20261124);
const ENVIRONMENTS = 4000;
const SPAWNED = 12;

function randomValue(f: Fuzz): string {
  return f.pick([
    f.text(12),
    String(f.int(1e6) - 1000),
    f.pick(['true', 'false', 'yes', 'off', 'TRUE', 'maybe', '', ' ', '0', '-1', '1e3', '0x10', 'NaN', 'Infinity', '3.5']),
    f.pick(['{', '[]', '{"viewport":{"width":"x"}}', '{"__proto__":{"a":1}}', JSON.stringify(f.value())]),
    f.pick(['http://', 'ftp://x', 'socks5://u:p@127.0.0.1:1', 'http://127.0.0.1:99999', '://', 'https://[::1']),
    f.pick(['/nonexistent/dir', '~', '~/x', '../..', '\u0000', 'a'.repeat(5000)]),
    f.pick(['1-2', '9000-8000', '0-65536', 'a-b', '1000-1000']),
  ]);
}

describe('random values for settings', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-config-fuzz-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const entries = Object.values(settings);
  const rejected: { env: Record<string, string>; names: string[] }[] = [];

  test(`${ENVIRONMENTS} random environments: each loads, or fails with a ConfigError naming a fuzzed variable`, (t) => {
    t.diagnostic(`seed ${SEED} (replay with STEALTH_FUZZ_SEED=${SEED})`);
    const f = fuzzer(SEED);
    let loaded = 0;
    for (let i = 0; i < ENVIRONMENTS; i++) {
      const env: Record<string, string> = {};
      for (let k = 1 + f.int(3); k > 0; k--) env[f.pick(entries).env] = randomValue(f);
      try {
        loadConfig({}, env);
        loaded++;
      } catch (error) {
        assert.ok(error instanceof ConfigError, `not a ConfigError for ${JSON.stringify(env).slice(0, 300)}: ${(error as Error)?.stack}`);
        const names = Object.keys(env);
        assert.ok(names.some((name) => error.message.includes(name)), `the message names the variable: ${error.message} (env ${names.join(', ')})`);
        if (rejected.length < 500) rejected.push({ env, names });
      }
    }
    t.diagnostic(`${loaded} loaded, ${ENVIRONMENTS - loaded} rejected`);
    assert.ok(rejected.length > SPAWNED, 'enough rejected environments to try on the CLI');
  });

  test(`the CLI with ${SPAWNED} of the rejected environments: exit 2, the variable named, no stack trace`, async () => {
    const f = fuzzer(SEED + 1);
    for (let i = 0; i < SPAWNED; i++) {
      const { env, names } = f.pick(rejected);
      // A NUL cannot be passed in an environment at all.
      if (Object.values(env).some((v) => v.includes('\u0000'))) continue;
      const result = await runCli([], { ...testEnv(dir), ...env });
      assert.equal(result.code, 2, `exit code for ${JSON.stringify(env).slice(0, 300)}; stderr: ${result.stderr}`);
      assert.equal(result.stdout, '');
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.ok(names.some((name) => result.stderr.includes(name)), result.stderr);
    }
  });
});
