import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from './helpers/processes.ts';
import { ROOT, runToEnd } from './helpers/server.ts';

// The release script against two real registries (Debian's docker-registry)
// on 127.0.0.1: both hold the version and `latest` with one digest, the
// manifest list names its platforms, the SBOMs list Chromium and the binary,
// the provenance names the digest and the source revision.

const skip = process.env.STEALTH_TEST_SKIP_IMAGE === '1' ? 'STEALTH_TEST_SKIP_IMAGE=1' : false;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-release-'));
const registries: { addr: string; child: ChildProcess }[] = [];

before(async () => {
  if (skip) return;
  if (!fs.existsSync('/usr/bin/docker-registry')) {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-registry skopeo'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  for (const name of ['a', 'b']) {
    const port = await freePort();
    const config = path.join(work, `${name}.yml`);
    fs.writeFileSync(config, `version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: ${path.join(work, name)}\nhttp:\n  addr: 127.0.0.1:${port}\n`);
    const child = spawn('/usr/bin/docker-registry', ['serve', config], { stdio: 'ignore' });
    registries.push({ addr: `127.0.0.1:${port}`, child });
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      up = await fetch(`http://127.0.0.1:${port}/v2/`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(up, `registry ${name} answers /v2/`);
  }
}, { timeout: 300_000 });

after(() => {
  for (const r of registries) r.child.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

test('release: version and latest in two registries with one digest, SBOMs (npm, image) and provenance', { skip, timeout: 40 * 60_000 }, async () => {
  const out = path.join(work, 'out');
  const result = await runToEnd(path.join(ROOT, 'node_modules/.bin/node'), ['--experimental-strip-types', path.join(ROOT, 'scripts/release/publish.ts'), '--insecure', '--out', out, ...registries.flatMap((r) => ['--registry', r.addr])], process.env as Record<string, string>, 35 * 60_000);
  assert.equal(result.code, 0, result.stderr.slice(-4000));
  const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { version: string; digest: string; platforms: string[]; arm64: string };
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  assert.equal(summary.version, version);
  process.stderr.write(`# platforms: ${summary.platforms.join(', ')}; arm64: ${summary.arm64}\n`);

  const accept = 'application/vnd.oci.image.index.v1+json, application/vnd.docker.distribution.manifest.list.v2+json';
  for (const { addr } of registries) {
    const tags = (await (await fetch(`http://${addr}/v2/stealth-playwright-mcp/tags/list`)).json()) as { tags: string[] };
    assert.deepEqual([...tags.tags].sort(), [version, 'latest'].sort(), `${addr} holds both tags`);
    for (const tag of [version, 'latest']) {
      const res = await fetch(`http://${addr}/v2/stealth-playwright-mcp/manifests/${tag}`, { headers: { accept } });
      assert.equal(res.status, 200);
      const body = await res.text();
      assert.equal(res.headers.get('docker-content-digest'), summary.digest, `${addr} ${tag}: one digest everywhere`);
      assert.equal(`sha256:${crypto.createHash('sha256').update(body).digest('hex')}`, summary.digest);
      const index = JSON.parse(body) as { manifests: { platform: { os: string; architecture: string } }[] };
      const platforms = index.manifests.map((m) => `${m.platform.os}/${m.platform.architecture}`);
      assert.deepEqual(platforms.sort(), [...summary.platforms].sort(), 'the manifest list names every platform built');
      assert.ok(platforms.includes('linux/amd64'));
    }
  }

  const image = JSON.parse(fs.readFileSync(path.join(out, 'sbom-image.cdx.json'), 'utf8')) as { bomFormat: string; specVersion: string; metadata: { component: { hashes: { content: string }[] } }; components: { name: string; type: string; purl: string; version: string; hashes?: { alg: string; content: string }[] }[] };
  assert.equal(image.bomFormat, 'CycloneDX');
  assert.equal(image.metadata.component.hashes[0]!.content, summary.digest.slice('sha256:'.length));
  const chromium = image.components.find((c) => c.name === 'chromium');
  assert.ok(chromium, 'the image SBOM lists chromium');
  assert.match(chromium.purl, /^pkg:deb\/debian\/chromium@.+\?arch=amd64/);
  const binary = image.components.find((c) => c.type === 'application');
  const localBinary = crypto.createHash('sha256').update(fs.readFileSync(path.join(ROOT, 'dist/bin/stealth-playwright-mcp-linux-x64'))).digest('hex');
  assert.deepEqual(binary?.hashes, [{ alg: 'SHA-256', content: localBinary }], 'the binary in the image is the one built here');
  assert.ok(image.components.some((c) => c.name === 'fonts-noto-cjk'));

  const npm = JSON.parse(fs.readFileSync(path.join(out, 'sbom-npm.cdx.json'), 'utf8')) as { bomFormat: string; components: { name: string }[] };
  assert.equal(npm.bomFormat, 'CycloneDX');
  assert.ok(npm.components.some((c) => c.name === 'mcp' || c.name === '@playwright/mcp'), 'the npm SBOM lists @playwright/mcp');
  assert.ok(!npm.components.some((c) => c.name === 'bun'), 'dev dependencies are left out');

  const statement = JSON.parse(fs.readFileSync(path.join(out, 'provenance.intoto.json'), 'utf8')) as { _type: string; subject: { name: string; digest: { sha256: string } }[]; predicate: { buildDefinition: { resolvedDependencies: { digest: { gitCommit?: string } }[] } } };
  assert.equal(statement._type, 'https://in-toto.io/Statement/v1');
  for (const { addr } of registries) assert.ok(statement.subject.some((s) => s.name === `${addr}/stealth-playwright-mcp` && `sha256:${s.digest.sha256}` === summary.digest));
  assert.equal(statement.predicate.buildDefinition.resolvedDependencies[0]!.digest.gitCommit, execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim());
  const tarball = statement.subject.find((s) => s.name.endsWith('.tgz'))!;
  assert.equal(crypto.createHash('sha256').update(fs.readFileSync(path.join(out, tarball.name))).digest('hex'), tarball.digest.sha256);
});
