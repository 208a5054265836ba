// Every way getting the build can fail, told apart: a network problem can be
// retried or worked around with a mirror; a verification failure means the
// bytes are not the vendor's and must never fall back to anything.
export type FailureKind = 'network' | 'not-found' | 'verification' | 'licence' | 'disk' | 'archive';

export class BuildStoreError extends Error {
  override name = 'BuildStoreError';
  readonly kind: FailureKind;

  constructor(kind: FailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** URLs in messages: no userinfo, no query (a mirror URL may carry credentials). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    u.search = '';
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}

export const FIXES = {
  network:
    'check the network, or set STEALTH_DOWNLOAD_URL (--download-url) to a mirror, or pre-seed the cache from a machine that has the build, or pass --binary-path <chromium executable>',
  verification:
    'do not use these bytes. If you run a mirror, re-copy the vendor files (archive, SHA256SUMS, SHA256SUMS.sig); otherwise pass --binary-path <chromium executable>',
  disk: 'free disk space or make STEALTH_CACHE_DIR (--cache-dir) point at a writable directory, or pre-seed the cache',
} as const;
