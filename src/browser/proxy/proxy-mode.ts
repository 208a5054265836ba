import type { BrowserBinary } from '../binary.ts';
import { compareVersions, resolvePlatform, type PlatformTag } from '../build-store/platform.ts';
import { hasCredentials, type ProxySpec } from './proxy-url.ts';

/**
 * How a proxy reaches Chromium (research §1.7, §5.8):
 * - `inline`: `--proxy-server=scheme://user:pass@host:port`, for stealth builds
 *   that authenticate inline themselves;
 * - `driver`: Playwright's proxy object, which answers 407s over CDP (any build);
 * - `relay`: SOCKS5 with credentials, which no Chromium can authenticate, goes
 *   through an open HTTP relay on 127.0.0.1 that holds the credentials.
 */
export type ProxyMode = 'inline' | 'driver' | 'relay';

// The vendor's first builds that take HTTP proxy credentials inline
// (HTTP_PROXY_INLINE_AUTH_MIN_VERSION of the vendor's wrapper, research §1.7).
const INLINE_AUTH_MIN_VERSION: Record<PlatformTag, string> = {
  'linux-x64': '146.0.7680.177.5',
  'windows-x64': '146.0.7680.177.5',
  'linux-arm64': '148.0.7778.215.3',
  'darwin-arm64': '148.0.7778.215.3',
  'darwin-x64': '148.0.7778.215.3',
};

/** Only the stealth build has the capability, from the vendor's minimum build on. */
export function supportsInlineProxyAuth(binary: Pick<BrowserBinary, 'stealthBuildVersion'>, platform?: PlatformTag): boolean {
  const version = binary.stealthBuildVersion;
  if (!version) return false;
  let tag = platform;
  try {
    tag ??= resolvePlatform().tag;
  } catch {
    return false;
  }
  // compareVersions sorts newest first: <= 0 means "at least the minimum".
  return compareVersions(version, INLINE_AUTH_MIN_VERSION[tag]) <= 0;
}

export function proxyMode(spec: ProxySpec, inlineAuth: boolean): ProxyMode {
  if (!hasCredentials(spec)) return 'driver';
  if (spec.scheme === 'socks5') return 'relay';
  return inlineAuth ? 'inline' : 'driver';
}
