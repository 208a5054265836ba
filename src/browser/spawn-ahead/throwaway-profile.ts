import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROFILE_PREFIX } from './spawn-recipe.ts';
import { ARTIFACTS_PREFIX } from '../artifacts-dirs.ts';
import { isOwnDir } from '../../fs/private-dir.ts';
import { removeTreeSync } from '../../fs/remove-tree.ts';

// A Chromium that is killed (not closed) leaves its singleton-socket dir in
// TMPDIR next to its profile; only the profile's SingletonSocket link says which.
const SOCKET_DIR_PREFIX = 'org.chromium.Chromium.';

/**
 * SIGKILL to a browser's whole process group: Chromium's helpers may outlive
 * its main process (the group's id is not reused while any of them is left).
 */
export function killProcessGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Removes the singleton-socket dir a profile links to, if it is still there:
 * a Chromium that ended normally removed it itself.
 */
export function removeSocketDirOf(profileDir: string): void {
  try {
    const socketDir = path.dirname(fs.readlinkSync(path.join(profileDir, 'SingletonSocket')));
    if (path.basename(socketDir).startsWith(SOCKET_DIR_PREFIX) && isOwnDir(socketDir)) removeTreeSync(socketDir);
  } catch {
    // no socket link: Chromium had not got that far, or removed it
  }
}

/**
 * Removes throwaway profiles (and Chromium's socket dir each one links to) and
 * Playwright's artifacts dirs, checking each again: only absolute paths with
 * one of Playwright's prefixes,
 * directories owned by this user, never through a symlink. (A dead instance's
 * TMPDIR may differ from ours, so the parent is not compared.)
 * Returns how many were removed.
 */
export function removeThrowawayDirs(dirs: readonly string[]): number {
  let removed = 0;
  for (const dir of dirs) {
    const name = path.basename(dir);
    if (!path.isAbsolute(dir) || !(name.startsWith(PROFILE_PREFIX) || name.startsWith(ARTIFACTS_PREFIX)) || !isOwnDir(dir)) continue;
    removeSocketDirOf(dir);
    // Not gone after the retries: a helper process still writing into it; left to the OS's cleanup of TMPDIR.
    if (removeTreeSync(dir)) removed++;
  }
  return removed;
}
