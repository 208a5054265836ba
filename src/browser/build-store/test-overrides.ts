import { httpUrl } from '../../config/build-kinds.ts';
import { boolean } from '../../config/kinds.ts';
import { parseSetting, type Env } from '../../config/load.ts';
import type { Logger } from '../../log.ts';
import * as v from 'valibot';
import type { Kind } from '../../config/kinds.ts';

// Knobs for the test suite only, deliberately absent from --help and the
// README: production never sets them, and each one is announced with a loud
// warning when it is. They exist because the vendor's host cannot be reached
// from CI and no test may hold the vendor's signing key.
export interface TestOverrides {
  /** Replaces the vendor origin (keyed API, licence check, keyless archives); no GitHub fallback. */
  vendorOrigin?: string;
  /** One more Ed25519 public key (base64, raw 32 bytes) trusted to sign SHA256SUMS. */
  trustedKey?: string;
  /** Pretend the driver sees no console messages, as with the real build. */
  consoleFallbackOnly: boolean;
}

const ed25519Key: Kind<string> = {
  accepts: 'base64 of a raw 32-byte Ed25519 public key',
  schema: v.pipe(v.string(), v.trim(), v.check((k) => Buffer.from(k, 'base64').length === 32 && Buffer.from(k, 'base64').toString('base64') === k)),
};

let warned = false;

export function readTestOverrides(env: Env, log?: Logger): TestOverrides {
  const read = <T>(name: string, kind: Kind<T>): T | undefined => (env[name] ? parseSetting({ env: name, kind }, env[name]!, name) : undefined);
  const out: TestOverrides = {
    vendorOrigin: read('STEALTH_TEST_VENDOR_URL', httpUrl),
    trustedKey: read('STEALTH_TEST_TRUSTED_KEY', ed25519Key),
    consoleFallbackOnly: read('STEALTH_TEST_CONSOLE_FALLBACK_ONLY', boolean) ?? false,
  };
  if (log && !warned && (out.vendorOrigin || out.trustedKey || out.consoleFallbackOnly)) {
    warned = true;
    log.warn('TEST-ONLY overrides are set (STEALTH_TEST_VENDOR_URL / STEALTH_TEST_TRUSTED_KEY / STEALTH_TEST_CONSOLE_FALLBACK_ONLY): this server trusts a non-vendor origin or key. Never set these outside the test suite.');
  }
  return out;
}
