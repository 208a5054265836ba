import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ProfileError } from './profile-dir.ts';
import { processAlive } from './liveness.ts';

// Chromium marks a profile in use with SingletonLock, a symlink to
// `<hostname>-<pid>`, plus SingletonSocket and SingletonCookie. A crashed
// browser leaves them behind and the next launch refuses the profile.
const SINGLETON_FILES = ['SingletonLock', 'SingletonSocket', 'SingletonCookie'];

/**
 * Clears a stale Chromium lock: only when it names this host and a process
 * that no longer exists. A live one (or one from another host, which cannot
 * be checked) is never touched: two browsers on one profile corrupt it.
 * Returns what was cleared, for the log.
 */
export async function clearStaleSingletonLock(dir: string, label: string): Promise<string | null> {
  let target: string;
  try {
    target = await fs.readlink(path.join(dir, 'SingletonLock'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const match = /^(.*)-(\d+)$/.exec(target);
  if (!match) throw new ProfileError(`${label} has a Chromium lock (SingletonLock → ${target}) this server cannot read. Fix: make sure no browser uses ${dir}, then delete ${path.join(dir, 'SingletonLock')}.`, 409);
  const [, host, pidText] = match;
  const pid = Number(pidText);
  if (host !== os.hostname())
    throw new ProfileError(`${label} is locked by a Chromium on another host (${host}, pid ${pid}). Fix: close that browser; if it is gone, delete ${path.join(dir, 'SingletonLock')}.`, 409);
  if (processAlive(pid))
    throw new ProfileError(`${label} is in use by a running Chromium (pid ${pid}). Fix: close that browser, or use another profile.`, 409);
  await Promise.all(SINGLETON_FILES.map((f) => fs.rm(path.join(dir, f), { force: true })));
  return `cleared a stale Chromium lock of dead pid ${pid} in ${label}`;
}
