// Where the real build (CloakBrowser) comes from, and who may sign it. These
// are the vendor's public facts; see shared/research/stealth-binary.md §1.3-1.4.
export const VENDOR_ORIGIN = 'https://cloakbrowser.dev';
export const GITHUB_RELEASES = 'https://github.com/CloakHQ/cloakbrowser/releases/download';

/** Base64 of the raw 32-byte Ed25519 keys that sign SHA256SUMS; a list, so keys can rotate. */
export const VENDOR_SIGNING_KEYS = ['MKFKwIhUcKWq5xTuNA0Ovg99njcDEcEJvmWYYhApvaU='];

export const PROVIDER = 'cloakbrowser';

export function archiveName(tag: string, ext: string): string {
  return `cloakbrowser-${tag}${ext}`;
}

/** The env var the keyed build reads its licence key from (it enforces seats itself). */
export const BROWSER_LICENCE_ENV = 'CLOAKBROWSER_LICENSE_KEY';
