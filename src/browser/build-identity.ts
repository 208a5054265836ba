import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readInstalled } from './build-store/receipt.ts';

// The vendor's own cache names a build directory after its version
// (`~/.cloakbrowser/chromium-146.0.7680.177.5/`).
const VENDOR_DIR = /^chromium-(\d+(?:\.\d+){4})(?:-pro)?$/;

/** The vendor client's cache: CLOAKBROWSER_CACHE_DIR, else ~/.cloakbrowser. */
export function vendorCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLOAKBROWSER_CACHE_DIR || path.join(env.HOME || os.homedir(), '.cloakbrowser');
}

/**
 * A build the vendor's own client installed for this version and tier
 * (`<cache>/chromium-<version>[-pro]/`, executable `chrome`), so it is not
 * downloaded a second time. It carries no receipt of ours: it is used as the
 * vendor's client left it, like a --binary-path.
 */
export async function vendorInstalledBuild(version: string, keyed: boolean, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const dir = path.join(vendorCacheDir(env), `chromium-${version}${keyed ? '-pro' : ''}`);
  for (const candidate of [path.join(dir, 'chrome'), path.join(dir, 'chrome-linux', 'chrome')]) {
    const runnable = await fs.access(candidate, fs.constants?.X_OK ?? 1).then(() => true, () => false);
    if (runnable) return candidate;
  }
  return undefined;
}

/**
 * The stealth build version of an executable given by path, when it is one:
 * from our install receipt in its directory (or a parent), or from the
 * vendor's cache directory name. Stock Chromium gives null.
 */
export async function identifyStealthBuild(executable: string): Promise<string | null> {
  let dir = path.dirname(await fs.realpath(executable).catch(() => executable));
  for (let depth = 0; depth < 3; depth++) {
    const receipt = await readInstalled(dir);
    if (receipt) return receipt.version;
    const vendor = path.basename(dir).match(VENDOR_DIR);
    if (vendor) return vendor[1]!;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}
