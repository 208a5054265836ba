import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { connect, serverCommand, testEnv } from './helpers/server.ts';

// On Node, playwright-core's two bundles are compiled from a V8 cache written
// after the first tool call. What a user may meet: the cache appears once,
// private to them; a damaged one, or one in a directory others can write,
// never breaks a start; the server works the same either way. The same for
// the decoded source kept beside it.

const onNode = !process.env.STEALTH_TEST_SERVER;

function cacheFiles(tmp: string): string[] {
  const base = path.join(tmp, 'node-compile-cache');
  if (!fs.existsSync(base)) return [];
  const out: string[] = [];
  for (const version of fs.readdirSync(base)) {
    const dir = path.join(base, version, 'stealth-playwright-mcp');
    if (fs.existsSync(dir)) for (const name of fs.readdirSync(dir)) out.push(path.join(dir, name));
  }
  // By bundle, then kind: coreBundle's source and code, then utilsBundle's.
  const kindOf = (file: string) => path.basename(file).replace(/-[0-9a-f]{16}\./, '.');
  return out.sort((a, b) => kindOf(a).localeCompare(kindOf(b)));
}

// A kept source: the SHA-256 of the rest, then the bundle in Node's CommonJS wrapper.
function sealedSource(file: string): boolean {
  const bytes = fs.readFileSync(file);
  const body = bytes.subarray(32);
  const text = body.toString('latin1');
  return createHash('sha256').update(body).digest().equals(bytes.subarray(0, 32)) && text.startsWith('(function (exports, require, module, __filename, __dirname) { ') && text.trimEnd().endsWith('});');
}

async function oneSession(env: Record<string, string>): Promise<string> {
  const server = await connect(env);
  try {
    const result = await server.client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>cached</title><h1>from the code cache</h1>' } });
    assert.ok(!result.isError, JSON.stringify(result));
    const text = (result.content as { text: string }[]).map((c) => c.text).join('\n');
    assert.match(text, /from the code cache/);
    return text;
  } finally {
    await server.client.close();
    await server.transport.exit;
  }
}

describe('Node: playwright-core compiled from a post-run V8 cache', { skip: !onNode && 'the binary is compiled by Bun' }, () => {
  const out = useTempDir('spm-cc-out-');
  const tmp = useTempDir('spm-cc-tmp-');
  const sharedTmp = useTempDir('spm-cc-shared-');
  const env = () => testEnv(out.path, { TMPDIR: tmp.path });

  test('the first session writes one private cache and one decoded source per bundle; damaged ones are replaced and the next start works the same', async () => {
    assert.ok(serverCommand()[1][0]?.endsWith('cli.mjs'));
    await oneSession(env());
    const files = cacheFiles(tmp.path);
    assert.deepEqual(files.map((f) => path.basename(f).replace(/-[0-9a-f]{16}\./, '.')), ['coreBundle.src', 'coreBundle.v8', 'utilsBundle.src', 'utilsBundle.v8'], files.join('\n'));
    assert.equal(fs.statSync(path.dirname(files[0]!)).mode & 0o777, 0o700);
    for (const file of files) assert.equal(fs.statSync(file).mode & 0o777, 0o600, file);
    const [coreSource, coreCode, utilsSource, utilsCode] = files as [string, string, string, string];
    const sizes = [coreCode, utilsCode].map((f) => fs.statSync(f).size);
    assert.ok(sizes.every((size) => size > 100_000), `caches hold compiled code: ${sizes}`);
    for (const source of [coreSource, utilsSource]) assert.ok(sealedSource(source), `${source} holds its digest and the wrapped bundle`);

    // Garbage of the right length, and a truncated file: V8 refuses both.
    fs.writeFileSync(coreCode, Buffer.alloc(sizes[0]!, 7));
    fs.writeFileSync(utilsCode, fs.readFileSync(utilsCode).subarray(0, 1000));
    // A source with one byte changed (the same length: V8 would take the code cache with it), and a truncated one.
    const changed = fs.readFileSync(coreSource);
    changed[changed.length - 100]! ^= 1;
    fs.writeFileSync(coreSource, changed);
    fs.writeFileSync(utilsSource, fs.readFileSync(utilsSource).subarray(0, 1000));
    await oneSession(env());
    assert.deepEqual(cacheFiles(tmp.path), files, 'the same four files');
    assert.notDeepEqual(fs.readFileSync(coreCode), Buffer.alloc(sizes[0]!, 7), 'the damaged cache was written anew');
    assert.ok(fs.statSync(utilsCode).size > 100_000, 'the truncated cache was written anew');
    for (const source of [coreSource, utilsSource]) assert.ok(sealedSource(source), `${source} was written anew`);

    // And the start after that reads them.
    await oneSession(env());
  });

  test('a cache directory others can write is not used', async () => {
    const shared = sharedTmp.path;
    const envShared = testEnv(out.path, { TMPDIR: shared, NODE_COMPILE_CACHE: path.join(shared, 'node-compile-cache') });
    await oneSession(envShared);
    const [ours] = cacheFiles(shared).map((f) => path.dirname(f));
    assert.ok(ours, 'written at first');
    // Made writable by others, with files planted: a used dir would have them rejected by V8 and rewritten.
    for (const file of fs.readdirSync(ours)) fs.writeFileSync(path.join(ours, file), 'planted by someone else');
    fs.chmodSync(ours, 0o777);
    await oneSession(envShared);
    for (const file of fs.readdirSync(ours)) assert.equal(fs.readFileSync(path.join(ours, file), 'utf8'), 'planted by someone else', 'neither read nor rewritten');
  });
});
