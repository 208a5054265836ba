import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// The keyed stealth build checks its licence itself and exits with a code of
// its own when it refuses to run; it can also write why into a status file
// (CLOAKBROWSER_LICENSE_STATUS_FILE). Without this, the user sees "browser closed".
export const LICENCE_STATUS_ENV = 'CLOAKBROWSER_LICENSE_STATUS_FILE';

const EXITS: Record<number, { what: string; fix: string }> = {
  76: { what: 'every seat of this licence is in use (each session runs its own browser, and each takes a seat)', fix: 'close other browsers that use the key, lower --http-session-max to the plan\'s seats, or add seats to the plan' },
  77: { what: 'the licence key is invalid or expired', fix: 'check STEALTH_LICENSE_KEY (or run `login` again), or unset it to use the keyless build' },
  78: { what: 'the licence server could not be reached to check the key', fix: 'let this machine reach the vendor (cloakbrowser.dev), or unset the key to use the keyless build' },
  79: { what: 'the licence status file could not be written', fix: `make the cache dir (--cache-dir) writable; the build writes its status under <cache-dir>/denials/` },
};

/** A status file path for one launch, under the cache dir (the vendor's client does the same under ~/.cloakbrowser). */
export function statusFileFor(cacheDir: string): string {
  return path.join(cacheDir, 'denials', `${crypto.randomUUID()}.json`);
}

export class LicenceRefused extends Error {
  override name = 'LicenceRefused';
}

/** A clear error for a launch the keyed build refused, or undefined when the failure was something else. */
export function licenceRefusal(error: unknown, statusFile: string | undefined): LicenceRefused | undefined {
  const code = Number((error as Error)?.message?.match(/exitCode=(\d+)/)?.[1]);
  const exit = EXITS[code];
  if (!exit) return undefined;
  let status = '';
  if (statusFile) {
    try {
      const parsed = JSON.parse(fs.readFileSync(statusFile, 'utf8')) as Record<string, unknown>;
      // Only short scalar fields: the file is the build's, and never holds the key.
      status = Object.entries(parsed)
        .filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v) && String(v).length < 80)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
    } catch {
      // no status written
    } finally {
      fs.rmSync(statusFile, { force: true });
    }
  }
  return new LicenceRefused(`The stealth build refused to start (exit ${code}): ${exit.what}${status ? ` [${status}]` : ''}. Fix: ${exit.fix}.`);
}
