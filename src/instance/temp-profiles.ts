import fs from 'node:fs';
import path from 'node:path';
import { onBrowserStarted } from '../browser/browser-spawn.ts';
import { PROFILE_PREFIX, throwawayProfileOf } from '../browser/spawn-ahead/spawn-recipe.ts';

// A browser without a profile of the user's runs on a throwaway one in TMPDIR
// (Playwright's, or the one a browser started ahead uses), removed by this
// process when the browser closes. A server that is SIGKILLed never gets to
// that: each start would leave ~1 MB behind, plus Chromium's singleton-socket
// dir. So the instance record lists the throwaway profiles in use, and the
// next start removes those of a dead instance along with its browsers.

const SOCKET_DIR_PREFIX = 'org.chromium.Chromium.';

let report: ((dirs: string[]) => void) | undefined;
const inUse = new Set<string>();
// Playwright removes a closed browser's profile asynchronously (seconds, with
// dozens closing at once), and a session counts as closed before that ends: a
// server stopped right after its sessions closed left every one half removed.
// Those still there when this process exits are removed then, synchronously.
const removing = new Set<string>();

/**
 * Watches every browser launch of this process (from here on) and reports the
 * throwaway profiles of the browsers still running whenever that set changes.
 */
export function trackThrowawayProfiles(onChange: (dirs: string[]) => void): void {
  const installed = report !== undefined;
  report = onChange;
  if (installed) return;
  onBrowserStarted((child, args) => {
    const dir = throwawayProfileOf(args);
    if (!dir || child.pid === undefined) return;
    inUse.add(dir);
    report?.([...inUse]);
    child.once('close', () => {
      inUse.delete(dir);
      report?.([...inUse]);
      for (const earlier of removing) if (!fs.existsSync(earlier)) removing.delete(earlier);
      removing.add(dir);
    });
  });
  // Those already gone are skipped there (not a directory of ours any more).
  process.once('exit', () => removeThrowawayProfiles([...removing]));
}

function ownedDir(dir: string): boolean {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  return Boolean(stat?.isDirectory() && (typeof process.getuid !== 'function' || stat.uid === process.getuid()));
}

/**
 * Removes the throwaway profiles a dead instance listed (and Chromium's socket
 * dir each one links to), checking each again: only absolute paths with
 * Playwright's prefix, directories owned by this user, never through a symlink.
 * (The dead instance's TMPDIR may differ from ours, so the parent is not compared.)
 * Returns how many were removed.
 */
export function removeThrowawayProfiles(dirs: readonly string[]): number {
  let removed = 0;
  for (const dir of dirs) {
    if (!path.isAbsolute(dir) || !path.basename(dir).startsWith(PROFILE_PREFIX) || !ownedDir(dir)) continue;
    try {
      const socketDir = path.dirname(fs.readlinkSync(path.join(dir, 'SingletonSocket')));
      if (path.basename(socketDir).startsWith(SOCKET_DIR_PREFIX) && ownedDir(socketDir)) fs.rmSync(socketDir, { recursive: true, force: true });
    } catch {
      // no socket link: Chromium had not got that far, or removed it
    }
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      removed++;
    } catch {
      // left to the OS's cleanup of TMPDIR
    }
  }
  return removed;
}
