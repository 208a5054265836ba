import os from 'node:os';
import type { Env } from '../config/load.ts';
import type { Config } from '../config/settings.ts';
import { redactUrl } from './build-store/errors.ts';
import { cacheLayout, listInstalled } from './build-store/layout.ts';
import { PINNED_VERSIONS, resolvePlatform, type Platform } from './build-store/platform.ts';
import { buildRequest, origins } from './build-store/release.ts';
import { readTestOverrides } from './build-store/test-overrides.ts';
import { licenceFacts, resolveLicence } from './licence.ts';

/** `info`: the build cache and licence as they are on disk; no network, no browser run. */
export async function buildInfo(config: Config, env: Env) {
  const licence = await resolveLicence(config);
  let platform: Platform | undefined;
  let platformError: string | undefined;
  try {
    platform = resolvePlatform();
  } catch (error) {
    platformError = (error as Error).message;
  }
  const installed = (await listInstalled(config.cacheDir)).map((b) => ({
    version: b.receipt.version,
    platform: b.receipt.platform,
    tier: b.receipt.tier,
    dir: b.dir,
    verification: b.receipt.verification,
    keyId: b.receipt.keyId ?? null,
    archiveSha256: b.receipt.archive.sha256,
    installedAt: b.receipt.installedAt,
  }));
  const request = platform ? buildRequest(config, platform, licence.key, readTestOverrides(env)) : undefined;
  const candidates = installed.filter((b) => b.platform === platform?.tag && b.tier === request?.tier);
  const active = config.binaryPath
    ? { source: 'custom', path: config.binaryPath, version: null }
    : (() => {
        const match = request?.version ? candidates.find((b) => b.version === request.version) : candidates[0];
        return match ? { source: 'cache', path: match.dir, version: match.version } : null;
      })();
  return {
    cacheDir: config.cacheDir,
    licenceFile: cacheLayout(config.cacheDir).licence,
    engine: config.browserEngine,
    platform: platform ? { tag: platform.tag, os: process.platform, arch: process.arch, release: os.release() } : { error: platformError },
    tier: request?.tier ?? null,
    pinned: platform ? { version: PINNED_VERSIONS[platform.tag], tier: 'keyless' } : null,
    active,
    installed,
    update: {
      // This server never updates on its own: a new keyless pin comes with a new release.
      autoUpdate: false,
      pinnedInstalled: platform ? installed.some((b) => b.platform === platform.tag && b.tier === 'keyless' && b.version === PINNED_VERSIONS[platform.tag]) : false,
      availableOffline: active !== null,
      downloadFrom: request ? (request.version ? redactUrl(origins(request, request.version)[0]!.archiveUrl) : `${request.vendorOrigin}/api/download/<newest>`) : null,
    },
    licence: licenceFacts(licence),
  };
}

export type BuildInfo = Awaited<ReturnType<typeof buildInfo>>;
