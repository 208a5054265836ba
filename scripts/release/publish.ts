// Release: the image for every platform this machine can build, pushed as one
// manifest list under the version and `latest` to each registry (the same
// digest everywhere: built and pushed once, then copied byte for byte), plus
// CycloneDX SBOMs (npm package; image: its Debian packages and the binary) and
// an in-toto/SLSA provenance statement, written to --out.
//
//   node --experimental-strip-types scripts/release/publish.ts \
//     --registry registry-a.example:5000 --registry registry-b.example [--out dist/release] [--insecure]
//
// --insecure: plain HTTP, no TLS verification (registries on this machine's loopback).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { imageSbom, npmSbom } from './sbom.ts';
import { provenance } from './provenance.ts';
import { PODMAN_GLOBAL } from '../container/podman-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REPO = 'stealth-playwright-mcp';
const PACKAGES_FILE = '/usr/share/stealth-playwright-mcp/packages.tsv';

const { values } = parseArgs({
  options: {
    registry: { type: 'string', multiple: true, default: [] },
    out: { type: 'string', default: path.join(ROOT, 'dist', 'release') },
    insecure: { type: 'boolean', default: false },
  },
});
const registries = values.registry!;
if (registries.length === 0) {
  process.stderr.write('publish: give at least one --registry host[:port] (the specification asks for two)\n');
  process.exit(2);
}
for (const r of registries)
  if (!/^[a-z0-9.-]+(:\d{1,5})?(\/[a-z0-9._/-]+)?$/i.test(r)) {
    process.stderr.write(`publish: --registry ${JSON.stringify(r)} is not host[:port][/namespace]. Fix: e.g. --registry 127.0.0.1:5000\n`);
    process.exit(2);
  }

const log = (line: string) => process.stderr.write(`publish: ${line}\n`);
const run = (cmd: string, args: string[], opts: { input?: string } = {}) =>
  execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['pipe', 'pipe', 'inherit'], maxBuffer: 256 * 2 ** 20, ...opts });
const tls = values.insecure ? ['--tls-verify=false'] : [];
const srcTls = values.insecure ? ['--src-tls-verify=false', '--dest-tls-verify=false'] : [];

// Tools from Debian when missing (as build-image.sh does for podman).
const missing = ['skopeo', 'podman'].filter((t) => { try { run('sh', ['-c', `command -v ${t}`]); return false; } catch { return true; } });
if (missing.length) {
  log(`installing ${missing.join(' ')} from Debian`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...missing]);
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const version = pkg.version;
const revision = run('git', ['rev-parse', 'HEAD']).trim();
const startedOn = new Date().toISOString();
fs.mkdirSync(values.out!, { recursive: true });

// 1. The images. arm64 needs an arm64 userland at build time (apt in the
// rootfs stage), so it is built only where the kernel can run arm64 programs.
const platforms: { platform: string; tag: string }[] = [];
const amd64 = `localhost/${REPO}:${version}-amd64`;
run('sh', ['scripts/container/build-image.sh', amd64]);
platforms.push({ platform: 'linux/amd64', tag: amd64 });
const arm64Reason = fs.existsSync('/proc/sys/fs/binfmt_misc/qemu-aarch64')
  ? undefined
  : 'not built: this machine has no qemu-aarch64 binfmt handler (apt-get install qemu-user-static binfmt-support, with binfmt_misc mounted), so the arm64 rootfs stage cannot run apt';
if (arm64Reason) log(`linux/arm64 ${arm64Reason}`);

// 2. One manifest list, pushed once, then copied byte for byte: one digest everywhere.
const list = `localhost/${REPO}:${version}`;
try { run('podman', [...PODMAN_GLOBAL, 'manifest', 'rm', list]); } catch { /* none yet */ }
run('podman', [...PODMAN_GLOBAL, 'manifest', 'create', list]);
for (const p of platforms) run('podman', [...PODMAN_GLOBAL, 'manifest', 'add', list, `containers-storage:${p.tag}`]);
const [first, ...rest] = registries;
const ref = (registry: string, tag: string) => `docker://${registry}/${REPO}:${tag}`;
run('podman', [...PODMAN_GLOBAL, 'manifest', 'push', '--all', ...tls, list, ref(first!, version)]);
run('skopeo', ['copy', '--all', '--preserve-digests', ...srcTls, ref(first!, version), ref(first!, 'latest')]);
for (const registry of rest) for (const tag of [version, 'latest']) run('skopeo', ['copy', '--all', '--preserve-digests', ...srcTls, ref(first!, version), ref(registry, tag)]);
const raw = run('skopeo', ['inspect', '--raw', ...tls, ref(first!, version)]);
const digest = `sha256:${crypto.createHash('sha256').update(raw).digest('hex')}`;
log(`pushed ${digest} as ${version} and latest to ${registries.join(', ')}`);

// 3. SBOMs: the npm package, and the image (its Debian packages and the binary).
const container = run('podman', [...PODMAN_GLOBAL, 'create', amd64]).trim();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-release-'));
try {
  run('podman', [...PODMAN_GLOBAL, 'cp', `${container}:${PACKAGES_FILE}`, path.join(tmp, 'packages.tsv')]);
  run('podman', [...PODMAN_GLOBAL, 'cp', `${container}:/usr/local/bin/${REPO}`, path.join(tmp, 'binary')]);
  const packages = fs.readFileSync(path.join(tmp, 'packages.tsv'), 'utf8');
  const binarySha256 = crypto.createHash('sha256').update(fs.readFileSync(path.join(tmp, 'binary'))).digest('hex');
  fs.writeFileSync(path.join(values.out!, 'sbom-image.cdx.json'), JSON.stringify(imageSbom({ version, digest, packages, binarySha256 }), null, 2));
  fs.writeFileSync(path.join(values.out!, 'sbom-npm.cdx.json'), JSON.stringify(npmSbom(run('npm', ['sbom', '--sbom-format', 'cyclonedx', '--omit', 'dev', '--package-lock-only'])), null, 2));
  // 4. Provenance: what was built, from which source, by what, with which inputs.
  const tarball = run('npm', ['pack', '--silent', '--pack-destination', values.out!]).trim().split('\n').at(-1)!;
  const tarballSha256 = crypto.createHash('sha256').update(fs.readFileSync(path.join(values.out!, tarball))).digest('hex');
  const base = run('sh', ['scripts/container/base-image.sh']).trim();
  fs.writeFileSync(
    path.join(values.out!, 'provenance.intoto.json'),
    JSON.stringify(provenance({ repo: REPO, registries, digest, version, revision, tarball, tarballSha256, binarySha256, base, startedOn, arm64: arm64Reason ?? 'built', podman: run('podman', ['--version']).trim(), host: os.hostname() }), null, 2),
  );
} finally {
  run('podman', [...PODMAN_GLOBAL, 'rm', container]);
  fs.rmSync(tmp, { recursive: true, force: true });
  // The registries hold the release now. A local manifest list that outlives its
  // images (the next build replaces them) breaks `podman images` on this machine.
  for (const args of [['manifest', 'rm', list], ['rmi', ...platforms.map((p) => p.tag)]]) {
    try { run('podman', [...PODMAN_GLOBAL, ...args]); } catch { /* already gone */ }
  }
}
process.stdout.write(`${JSON.stringify({ version, digest, registries, platforms: platforms.map((p) => p.platform), arm64: arm64Reason ?? 'built', out: values.out })}\n`);
