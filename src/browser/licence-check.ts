import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log.ts';
import { validateLicence } from './licence.ts';

// The vendor's client validates a key before it fetches the keyed build, keeps
// the answer for 24 hours, and falls back to the keyless build (with a
// warning) when the key is invalid or cannot be checked. So do we.
const FRESH_MS = 24 * 60 * 60 * 1000;

interface Cached {
  keySha256: string;
  valid: boolean;
  plan: string | null;
  checkedAt: number;
}

export interface KeyVerdict {
  valid: boolean;
  reason: string;
}

export async function checkKey(key: string, vendorOrigin: string, cacheDir: string, log: Logger): Promise<KeyVerdict> {
  const keySha256 = crypto.createHash('sha256').update(key).digest('hex');
  const file = path.join(cacheDir, 'licence-check.json');
  const cached = await fs.readFile(file, 'utf8').then((t) => JSON.parse(t) as Cached, () => undefined);
  if (cached?.keySha256 === keySha256 && Date.now() - cached.checkedAt < FRESH_MS)
    return { valid: cached.valid, reason: cached.valid ? `valid (plan ${cached.plan ?? '?'}, checked ${new Date(cached.checkedAt).toISOString()})` : 'rejected by the vendor (cached answer)' };
  try {
    const answer = await validateLicence(key, vendorOrigin);
    const entry: Cached = { keySha256, valid: answer.valid, plan: answer.plan, checkedAt: Date.now() };
    await fs.mkdir(cacheDir, { recursive: false }).catch(() => {});
    await fs.writeFile(file, JSON.stringify(entry), { mode: 0o600 }).catch(() => {});
    return { valid: answer.valid, reason: answer.valid ? `valid (plan ${answer.plan ?? '?'})` : `rejected by the vendor${answer.expires ? ` (expires ${answer.expires})` : ''}` };
  } catch (error) {
    // A key validated before works offline from the stale answer, as the vendor's client allows.
    if (cached?.keySha256 === keySha256 && cached.valid) return { valid: true, reason: 'valid (stale answer; the vendor is unreachable now)' };
    log.debug(`licence check failed: ${(error as Error).message}`);
    return { valid: false, reason: 'could not be checked (the vendor is unreachable)' };
  }
}
