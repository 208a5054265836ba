import fs from 'node:fs/promises';
import path from 'node:path';
import type { StealthProfile } from '../stealth-profile.ts';

// Kept inside the profile so a returning visitor (same cookies) also keeps the
// same fingerprint; a fresh identity with old cookies is what detectors flag.
const SEED_FILE = '.stealth-playwright-mcp-seed';

/** Makes the session's fingerprint seed the profile's own: read it, or store this one. */
export async function adoptProfileSeed(dir: string, stealth: StealthProfile, launchArgs: string[]): Promise<void> {
  const file = path.join(dir, SEED_FILE);
  const stored = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(stored) && stored >= 10_000 && stored < 100_000) stealth.seed = stored;
  else await fs.writeFile(file, `${stealth.seed}\n`, { mode: 0o600 });
  const at = launchArgs.findIndex((arg) => arg.startsWith('--fingerprint='));
  if (at !== -1) launchArgs[at] = `--fingerprint=${stealth.seed}`;
}
