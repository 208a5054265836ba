import fs from 'node:fs';
import { onBrowserStarted } from '../browser/browser-spawn.ts';
import { throwawayProfileOf } from '../browser/spawn-ahead/spawn-recipe.ts';
import { removeSocketDirOf, removeThrowawayDirs } from '../browser/spawn-ahead/throwaway-profile.ts';
import { onArtifactsDir } from '../browser/artifacts-dirs.ts';

// A browser without a profile of the user's runs on a throwaway one in TMPDIR
// (Playwright's, or the one a browser started ahead uses), removed by this
// process when the browser closes. A server that is SIGKILLed never gets to
// that: each start would leave ~1 MB behind, plus Chromium's singleton-socket
// dir. So the instance record lists the throwaway profiles in use, and the
// next start removes those of a dead instance along with its browsers.
// Playwright's artifacts dir of each browser (artifacts-dirs.ts) goes the same
// way: listed from its creation until it is gone, removed at exit if it is not.

let report: ((dirs: string[]) => void) | undefined;
const inUse = new Set<string>();
// Playwright removes a closed browser's profile asynchronously (seconds, with
// dozens closing at once), and a session counts as closed before that ends: a
// server stopped right after its sessions closed left every one half removed.
// Those still there when this process exits are removed then, synchronously.
const removing = new Set<string>();
const artifacts = new Set<string>();

function current(): string[] {
  for (const dir of artifacts) if (!fs.existsSync(dir)) artifacts.delete(dir);
  return [...inUse, ...artifacts];
}

/**
 * Watches every browser launch of this process (from here on) and reports the
 * throwaway profiles of the browsers still running, and the artifacts dirs not
 * yet removed, whenever that set changes.
 */
export function trackThrowawayDirs(onChange: (dirs: string[]) => void): void {
  const installed = report !== undefined;
  report = onChange;
  if (installed) return;
  onArtifactsDir((dir) => {
    artifacts.add(dir);
    report?.(current());
  });
  onBrowserStarted((child, args) => {
    const dir = throwawayProfileOf(args);
    if (!dir || child.pid === undefined) return;
    inUse.add(dir);
    report?.(current());
    // A browser that died (a crash, the OOM killer) left its socket dir, and
    // Playwright removes only the profile: read the link before it does (this
    // listener runs before Playwright's own, registered after the spawn).
    child.once('exit', () => removeSocketDirOf(dir));
    child.once('close', () => {
      inUse.delete(dir);
      report?.(current());
      for (const earlier of removing) if (!fs.existsSync(earlier)) removing.delete(earlier);
      removing.add(dir);
    });
  });
  process.once('exit', () => {
    // Those already gone are skipped there (not a directory of ours any more).
    removeThrowawayDirs([...removing, ...artifacts]);
    // A browser still running now (hung, or slow to end) is SIGKILLed by
    // Playwright's exit hook, after this one, and removed with its profile;
    // its socket dir would stay.
    for (const dir of inUse) removeSocketDirOf(dir);
  });
}
