import type { Config } from '../../config/settings.ts';
import { fetchJson } from './download.ts';
import { BuildStoreError } from './errors.ts';
import { buildName, type Tier } from './layout.ts';
import { assertVersion, PINNED_VERSIONS, type Platform } from './platform.ts';
import type { TestOverrides } from './test-overrides.ts';
import { archiveName, GITHUB_RELEASES, VENDOR_ORIGIN, VENDOR_SIGNING_KEYS } from './vendor.ts';

export type OriginKind = 'vendor' | 'github' | 'mirror';

/** One place the archive and its manifest can come from; tried in order on network errors. */
export interface Origin {
  kind: OriginKind;
  archiveUrl: string;
  manifestUrl: string;
  signatureUrl: string;
  /** Sent with the archive request only (the keyed download needs the licence key). */
  archiveHeaders: Record<string, string>;
}

/** What to install, resolved from the settings; only a keyed build needs the network for this. */
export interface BuildRequest {
  cacheDir: string;
  platform: Platform;
  tier: Tier;
  /** Known up front for keyless builds (the pin); looked up from the vendor for keyed ones. */
  version: string | undefined;
  licenceKey: string | undefined;
  mirror: string | undefined;
  sha256: string | undefined;
  insecure: boolean;
  vendorOrigin: string;
  githubFallback: boolean;
  trustedKeys: string[];
}

export function buildRequest(config: Config, platform: Platform, licenceKey: string | undefined, test: TestOverrides): BuildRequest {
  // A mirror gets the keyless path: the licence key is never sent to a third party.
  const tier: Tier = licenceKey && !config.downloadUrl ? 'keyed' : 'keyless';
  return {
    cacheDir: config.cacheDir,
    platform,
    tier,
    version: tier === 'keyless' ? PINNED_VERSIONS[platform.tag] : undefined,
    licenceKey: tier === 'keyed' ? licenceKey : undefined,
    mirror: config.downloadUrl,
    sha256: config.downloadSha256,
    insecure: config.insecureUnverifiedDownload,
    vendorOrigin: test.vendorOrigin ?? VENDOR_ORIGIN,
    githubFallback: !test.vendorOrigin,
    trustedKeys: [...VENDOR_SIGNING_KEYS, ...(test.trustedKey ? [test.trustedKey] : [])],
  };
}

/** The vendor's newest keyed build for this platform (the server always serves it). */
export async function latestKeyedVersion(req: BuildRequest): Promise<string> {
  const url = `${req.vendorOrigin}/api/download/version`;
  const answer = await fetchJson<{ version?: unknown }>(url, { headers: { 'X-Platform': req.platform.tag } }, 'the keyed build version');
  if (typeof answer?.version !== 'string') throw new BuildStoreError('network', `${url} answered without a version. Fix: retry later, or unset STEALTH_LICENSE_KEY to use the keyless build.`);
  return assertVersion(answer.version, url);
}

export function origins(req: BuildRequest, version: string): Origin[] {
  const file = archiveName(req.platform.tag, req.platform.archiveExt);
  const dir = (base: string) => ({ archiveUrl: `${base}/${file}`, manifestUrl: `${base}/SHA256SUMS`, signatureUrl: `${base}/SHA256SUMS.sig` });
  if (req.tier === 'keyed') {
    const manifestBase = `${req.vendorOrigin}/releases/pro/chromium-v${version}`;
    return [{
      kind: 'vendor',
      ...dir(manifestBase),
      archiveUrl: `${req.vendorOrigin}/api/download/${version}`,
      archiveHeaders: { Authorization: `Bearer ${req.licenceKey}`, 'X-Platform': req.platform.tag },
    }];
  }
  if (req.mirror) return [{ kind: 'mirror', ...dir(`${req.mirror}/chromium-v${version}`), archiveHeaders: {} }];
  const list: Origin[] = [{ kind: 'vendor', ...dir(`${req.vendorOrigin}/chromium-v${version}`), archiveHeaders: {} }];
  if (req.githubFallback) list.push({ kind: 'github', ...dir(`${GITHUB_RELEASES}/chromium-v${version}`), archiveHeaders: {} });
  return list;
}

export function installName(req: BuildRequest, version: string): string {
  return buildName(version, req.platform.tag, req.tier);
}
