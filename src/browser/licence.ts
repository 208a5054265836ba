import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/config-error.ts';
import { licenceKey as licenceKeyKind } from '../config/build-kinds.ts';
import { parseSetting } from '../config/load.ts';
import type { Config } from '../config/settings.ts';
import { fetchJson } from './build-store/download.ts';
import { cacheLayout } from './build-store/layout.ts';
import { makeDir } from '../fs/make-dir.ts';
import { writeFileAtomic } from '../fs/write-atomic.ts';

// The licence key: STEALTH_LICENSE_KEY / --license-key, else the key saved by
// `login` in <cache>/license.key (0600). The key itself never leaves this
// module except in the keyed download's Authorization header, the browser's
// environment and the vendor's validation call; everything else gets `mask()`.
export type LicenceSource = 'setting' | 'file' | 'none';

// A key the vendor's own client saved (`cloakbrowser login`); ours comes first.
const VENDOR_LICENCE_FILE = path.join(os.homedir(), '.cloakbrowser', 'license.key');

export interface Licence {
  key: string | undefined;
  source: LicenceSource;
  file: string;
}

export async function resolveLicence(config: Pick<Config, 'licenseKey' | 'cacheDir'>): Promise<Licence> {
  const file = cacheLayout(config.cacheDir).licence;
  if (config.licenseKey) return { key: config.licenseKey, source: 'setting', file };
  for (const candidate of [file, VENDOR_LICENCE_FILE]) {
    const saved = await fs.readFile(candidate, 'utf8').catch(() => undefined);
    if (saved === undefined || saved.trim() === '') continue;
    const key = parseSetting({ env: candidate, kind: licenceKeyKind, secret: true }, saved, `the saved licence ${candidate}`);
    return { key, source: 'file', file: candidate };
  }
  return { key: undefined, source: 'none', file };
}

/** `cb_…wxyz`: enough to tell two keys apart, not enough to use one. */
export function maskKey(key: string): string {
  if (key.length < 12) return '****';
  const prefix = key.match(/^[A-Za-z]{1,4}_/)?.[0] ?? '';
  return `${prefix}****${key.slice(-4)}`;
}

export function licenceFacts(licence: Licence): { source: LicenceSource; key: string | null; sha256Prefix: string | null } {
  return {
    source: licence.source,
    key: licence.key ? maskKey(licence.key) : null,
    sha256Prefix: licence.key ? crypto.createHash('sha256').update(licence.key).digest('hex').slice(0, 12) : null,
  };
}

/** Saves the key for later starts, readable by the owner only. */
export async function saveLicence(cacheDir: string, key: string): Promise<string> {
  const file = cacheLayout(cacheDir).licence;
  await makeDir(path.dirname(file), 0o700);
  try {
    await writeFileAtomic(file, `${key}\n`, 0o600);
  } catch (error) {
    throw new ConfigError(`Could not save the licence to ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Fix: make STEALTH_CACHE_DIR (--cache-dir) writable, or set STEALTH_LICENSE_KEY instead.`);
  }
  return file;
}

export async function removeLicence(cacheDir: string): Promise<{ file: string; removed: boolean }> {
  const file = cacheLayout(cacheDir).licence;
  const removed = await fs.rm(file).then(() => true, (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return false;
    throw error;
  });
  return { file, removed };
}

export interface Validation {
  valid: boolean;
  plan: string | null;
  expires: string | null;
}

/** Asks the vendor whether the key is valid (POST /api/license/validate {license_key}). */
export async function validateLicence(key: string, vendorOrigin: string): Promise<Validation> {
  const answer = await fetchJson<{ valid?: unknown; plan?: unknown; expires?: unknown }>(
    `${vendorOrigin}/api/license/validate`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: { license_key: key } },
    'the licence check',
  );
  const expires = typeof answer?.expires === 'string' ? answer.expires : null;
  const expired = expires !== null && Date.parse(expires) < Date.now();
  return { valid: answer?.valid === true && !expired, plan: typeof answer?.plan === 'string' ? answer.plan : null, expires };
}
