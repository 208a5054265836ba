import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../log.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../package-info.ts';
import { downloadTo, fetchSmall, isDiskError } from './download.ts';
import { BuildStoreError, FIXES, redactUrl } from './errors.ts';
import { extractArchive } from './extract.ts';
import { cacheLayout, type InstalledBuild } from './layout.ts';
import { withLock } from './lock.ts';
import { parseManifest } from './manifest.ts';
import { installName, latestKeyedVersion, origins, type BuildRequest, type Origin } from './release.ts';
import { readInstalled, writeReceipt, type Receipt } from './receipt.ts';
import { verifyManifestSignature } from './verify.ts';
import { archiveName, PROVIDER } from './vendor.ts';
import { makeDir } from '../../fs/make-dir.ts';

// Concurrent sessions in one process share one install; other processes wait
// on the lock file and then find the finished build.
const inflight = new Map<string, Promise<InstalledBuild>>();

export function installBuild(req: BuildRequest, log: Logger): Promise<InstalledBuild> {
  return (async () => {
    const version = req.version ?? (await latestKeyedVersion(req));
    const name = installName(req, version);
    const key = path.join(req.cacheDir, name);
    let pending = inflight.get(key);
    if (!pending) {
      pending = install(req, version, name, log).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  })();
}

interface Expected {
  sha256: string | undefined;
  verification: Receipt['verification'];
  keyId?: string;
  manifestVersion?: string;
}

const refuse = (message: string) => new BuildStoreError('verification', `${message} Fix: ${FIXES.verification}.`);

/** What the archive must hash to, and why we believe it (fails closed). */
async function expectedHash(req: BuildRequest, origin: Origin, version: string, log: Logger): Promise<Expected> {
  const manifest = await fetchSmall(origin.manifestUrl, {}, 'the checksum manifest');
  const signature = manifest ? await fetchSmall(origin.signatureUrl, {}, 'the manifest signature') : undefined;
  if (manifest && signature) {
    const keyId = verifyManifestSignature(manifest, signature, req.trustedKeys, redactUrl(origin.signatureUrl));
    const parsed = parseManifest(manifest.toString('utf8'));
    if (parsed.version !== version)
      throw refuse(`The signed manifest ${redactUrl(origin.manifestUrl)} is for version ${JSON.stringify(parsed.version ?? null)}, not ${version}: refusing a possible downgrade.`);
    const file = archiveName(req.platform.tag, req.platform.archiveExt);
    const sha256 = parsed.entries.get(file);
    if (!sha256) throw refuse(`The signed manifest ${redactUrl(origin.manifestUrl)} lists no ${file}.`);
    if (req.sha256 && req.sha256 !== sha256)
      throw refuse(`STEALTH_DOWNLOAD_SHA256 (--download-sha256) is ${req.sha256}, but the vendor's signed manifest says ${sha256}.`);
    return { sha256, verification: 'signed', keyId, manifestVersion: parsed.version };
  }
  if (origin.kind !== 'mirror')
    throw new BuildStoreError('not-found', `The vendor's signed manifest for ${version} is missing at ${redactUrl(origin.manifestUrl)} (and .sig): refusing an unverified build. Fix: ${FIXES.network}.`);
  if (req.sha256) return { sha256: req.sha256, verification: 'pinned-sha256' };
  if (req.insecure) {
    log.warn(`INSECURE: installing the stealth build from ${redactUrl(origin.archiveUrl)} WITHOUT any verification (--insecure-unverified-download).`);
    return { sha256: undefined, verification: 'none' };
  }
  throw refuse(
    `The mirror ${redactUrl(req.mirror!)} serves no signed manifest (SHA256SUMS + SHA256SUMS.sig) for ${version}, so the build cannot be verified. ` +
      'Copy both files from the vendor next to the archive, or pass --download-sha256 <sha256 of the archive> (STEALTH_DOWNLOAD_SHA256), ' +
      'or, accepting unverified code, --insecure-unverified-download.',
  );
}

function diskFailure(error: unknown, what: string): BuildStoreError {
  return new BuildStoreError('disk', `Could not ${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Fix: ${FIXES.disk}.`, { cause: error });
}

async function install(req: BuildRequest, version: string, name: string, log: Logger): Promise<InstalledBuild> {
  const dirs = cacheLayout(req.cacheDir);
  try {
    for (const dir of [dirs.builds, dirs.locks, dirs.tmp]) await makeDir(dir);
  } catch (error) {
    throw diskFailure(error, `create the build cache in ${req.cacheDir}`);
  }
  const final = path.join(dirs.builds, name);
  const lockFile = path.join(dirs.locks, `${name}.lock`);
  const locked = withLock(lockFile, log, async () => {
    const existing = await readInstalled(final);
    if (existing) return { dir: final, executablePath: path.join(final, existing.executable), receipt: existing };
    await removeLeftovers(dirs, name);
    const rand = crypto.randomBytes(6).toString('hex');
    const part = path.join(dirs.tmp, `${name}-${rand}.part`);
    const staging = path.join(dirs.builds, `${name}.staging-${rand}`);
    try {
      const { origin, expected, got } = await fetchVerified(req, version, part, log);
      try {
        await extractArchive(part, staging);
      } catch (error) {
        throw isDiskError(error) ? diskFailure(error, `extract the build into ${staging}`) : error;
      }
      await fs.rm(part, { force: true });
      const executable = path.join(staging, req.platform.executable);
      if (!(await fs.stat(executable).then((s) => s.isFile(), () => false)))
        throw new BuildStoreError('archive', `The build archive has no ${req.platform.executable}. Fix: report it to the vendor, or pass --binary-path <chromium executable>.`);
      await fs.chmod(executable, 0o755);
      if (process.platform === 'darwin') await new Promise((resolve) => execFile('xattr', ['-cr', staging], resolve));
      const receipt: Receipt = {
        schema: 1,
        provider: PROVIDER,
        version,
        platform: req.platform.tag,
        tier: req.tier,
        executable: req.platform.executable,
        archive: { name: archiveName(req.platform.tag, req.platform.archiveExt), sha256: got.sha256, bytes: got.bytes },
        verification: expected.verification,
        ...(expected.keyId ? { keyId: expected.keyId } : {}),
        ...(expected.manifestVersion ? { manifestVersion: expected.manifestVersion } : {}),
        source: redactUrl(origin.archiveUrl),
        installedAt: new Date().toISOString(),
        installedBy: `${PACKAGE_NAME} ${PACKAGE_VERSION}`,
      };
      await writeReceipt(staging, receipt);
      await publish(staging, final);
      log.info(`stealth build ${version} (${req.platform.tag}) installed in ${final}`);
      return { dir: final, executablePath: path.join(final, receipt.executable), receipt };
    } catch (error) {
      if (error instanceof BuildStoreError) throw error;
      if (isDiskError(error)) throw diskFailure(error, `install the build into ${req.cacheDir}`);
      throw error;
    } finally {
      await fs.rm(part, { force: true });
      await fs.rm(staging, { recursive: true, force: true });
      await fs.rm(`${staging}.lift`, { recursive: true, force: true });
    }
  });
  return locked.catch((error: unknown) => {
    if (!(error instanceof BuildStoreError) && isDiskError(error)) throw diskFailure(error, `take the install lock ${lockFile}`);
    throw error;
  });
}

/** Tries each origin in turn; a network failure moves on, a verification failure stops everything. */
async function fetchVerified(req: BuildRequest, version: string, part: string, log: Logger) {
  const failures: BuildStoreError[] = [];
  for (const origin of origins(req, version)) {
    try {
      const expected = await expectedHash(req, origin, version, log);
      const label = `Downloading stealth build ${version} (${req.platform.tag}) from ${new URL(origin.archiveUrl).host}`;
      const got = await downloadTo(origin.archiveUrl, part, origin.archiveHeaders, log, label);
      if (expected.sha256 && got.sha256 !== expected.sha256)
        throw refuse(`Checksum mismatch for ${redactUrl(origin.archiveUrl)}: expected ${expected.sha256}, got ${got.sha256}. The archive was tampered with or corrupted in transit.`);
      log.info(`build archive verified (${expected.verification}${expected.keyId ? `, key ${expected.keyId}` : ''}, sha256 ${got.sha256})`);
      return { origin, expected, got };
    } catch (error) {
      await fs.rm(part, { force: true });
      if (!(error instanceof BuildStoreError) || (error.kind !== 'network' && error.kind !== 'not-found')) throw error;
      failures.push(error);
      log.warn(error.message);
    }
  }
  if (failures.length === 1) throw failures[0]!;
  throw new BuildStoreError(failures.at(-1)!.kind, failures.map((f) => f.message).join(' Then: '));
}

async function removeLeftovers(dirs: ReturnType<typeof cacheLayout>, name: string): Promise<void> {
  // Under the lock nobody else works on `name`: what is here was left by a killed install.
  for (const [dir, prefixes] of [[dirs.tmp, [`${name}-`]], [dirs.builds, [`${name}.staging-`, `${name}.stale-`]]] as const) {
    for (const entry of await fs.readdir(dir).catch(() => [] as string[]))
      if (prefixes.some((p) => entry.startsWith(p))) await fs.rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

async function publish(staging: string, final: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.rename(staging, final);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') {
        // A directory without a valid receipt (checked under the lock) is junk.
        const aside = `${final}.stale-${crypto.randomBytes(4).toString('hex')}`;
        await fs.rename(final, aside);
        await fs.rename(staging, final);
        await fs.rm(aside, { recursive: true, force: true });
        return;
      }
      // Windows antivirus holds fresh files for a moment.
      if ((code === 'EPERM' || code === 'EBUSY') && process.platform === 'win32' && attempt < 10) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        continue;
      }
      throw error;
    }
  }
}
