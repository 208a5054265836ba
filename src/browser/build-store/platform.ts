import { ConfigError } from '../../config/config-error.ts';

// The vendor's platform tags and the keyless build pinned for each. A pin is
// part of this release of our package: a new build means a new release, so a
// running server never downloads ~200 MB it was not tested with.
export type PlatformTag = 'linux-x64' | 'linux-arm64' | 'darwin-x64' | 'darwin-arm64' | 'windows-x64';

export const PINNED_VERSIONS: Record<PlatformTag, string> = {
  'linux-x64': '146.0.7680.177.5',
  'linux-arm64': '146.0.7680.177.3',
  'darwin-arm64': '145.0.7632.109.2',
  'darwin-x64': '145.0.7632.109.2',
  'windows-x64': '146.0.7680.177.5',
};

export interface Platform {
  tag: PlatformTag;
  archiveExt: '.tar.gz' | '.zip';
  /** The browser executable inside an extracted build. */
  executable: string;
}

export function resolvePlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): Platform {
  const key = `${platform}-${arch}`;
  switch (key) {
    case 'linux-x64':
    case 'linux-arm64':
      return { tag: key, archiveExt: '.tar.gz', executable: 'chrome' };
    case 'darwin-x64':
    case 'darwin-arm64':
      return { tag: key, archiveExt: '.tar.gz', executable: 'Chromium.app/Contents/MacOS/Chromium' };
    case 'win32-x64':
      return { tag: 'windows-x64', archiveExt: '.zip', executable: 'chrome.exe' };
    default:
      throw new ConfigError(
        `Unsupported platform for the stealth build: ${platform} ${arch} (builds exist for ${Object.keys(PINNED_VERSIONS).join(', ')}). ` +
          'Fix: pass --binary-path <chromium executable> (STEALTH_BINARY_PATH), or use --browser-engine playwright.',
      );
  }
}

// Versions flow into paths and URLs: only the vendor's dotted numbers pass.
const VERSION = /^\d+(?:\.\d+){3,4}$/;

export function assertVersion(version: string, origin: string): string {
  if (!VERSION.test(version)) throw new Error(`${origin} gave an invalid build version ${JSON.stringify(version.slice(0, 40))} (expected e.g. 146.0.7680.177.5)`);
  return version;
}

/** Newest first, comparing each dotted part as a number. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
