import fs from 'node:fs/promises';
import path from 'node:path';
import { readInstalled } from './build-store/receipt.ts';

// The vendor's own cache names a build directory after its version
// (`~/.cloakbrowser/chromium-146.0.7680.177.5/`).
const VENDOR_DIR = /^chromium-(\d+(?:\.\d+){4})$/;

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
