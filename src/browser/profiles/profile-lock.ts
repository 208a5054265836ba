import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ProfileError } from './profile-dir.ts';
import { processAlive } from './liveness.ts';

// Our own claim on a profile, one level above Chromium's: it is taken before
// the browser starts (Chromium's lock only exists while one runs) and holds
// for the whole session, across relaunches.
const LOCK_FILE = '.stealth-playwright-mcp.lock';

interface LockFacts {
  pid: number;
  host: string;
  createdAt: string;
}

// Profiles held by sessions of this process (a lock file cannot tell two
// sessions of one process apart).
const held = new Set<string>();

export interface ProfileLock {
  dir: string;
  release(): Promise<void>;
}

/**
 * Claims `dir` for one session. Refused when another session of this process,
 * or a live process on this host, holds it; a lock of a dead process on this
 * host (or a leftover of an earlier run of ours under the same pid, as in a
 * container) is taken over. A lock from another host is never overridden.
 */
export async function lockProfile(dir: string, label: string): Promise<ProfileLock> {
  if (held.has(dir)) throw new ProfileError(`${label} is already in use by another session of this server. Fix: close that session first, or use another profile.`, 409);
  held.add(dir);
  try {
    await takeLockFile(path.join(dir, LOCK_FILE), label);
  } catch (error) {
    held.delete(dir);
    throw error;
  }
  let released = false;
  return {
    dir,
    async release() {
      if (released) return;
      released = true;
      await fs.rm(path.join(dir, LOCK_FILE), { force: true }).catch(() => {});
      held.delete(dir);
    },
  };
}

async function takeLockFile(file: string, label: string): Promise<void> {
  const facts: LockFacts = { pid: process.pid, host: os.hostname(), createdAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, JSON.stringify(facts), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readLock(file);
    if (owner && owner.host !== facts.host)
      throw new ProfileError(`${label} is in use by pid ${owner.pid} on host ${owner.host} (since ${owner.createdAt}). Fix: close that server's session; if it is gone, delete ${file}.`, 409);
    if (owner && owner.pid !== process.pid && processAlive(owner.pid))
      throw new ProfileError(`${label} is in use by another server process (pid ${owner.pid}, since ${owner.createdAt}). Fix: close that session first, or use another profile.`, 409);
    // A lock being written right now reads empty: not stale yet.
    if (!owner && (await fileAgeMs(file)) < 5000)
      throw new ProfileError(`${label} is being claimed by another process right now. Fix: retry in a few seconds.`, 409);
    // Dead owner, our own pid (a previous run), or an unreadable leftover: stale.
    await fs.rm(file, { force: true });
  }
  throw new ProfileError(`${label}: could not take its lock ${file} (another process keeps creating it). Fix: retry.`, 409);
}

async function readLock(file: string): Promise<LockFacts | null> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LockFacts>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') return { pid: parsed.pid, host: parsed.host, createdAt: String(parsed.createdAt ?? '?') };
  } catch {
    // half-written or foreign: treated as stale below
  }
  return null;
}

async function fileAgeMs(file: string): Promise<number> {
  try {
    return Date.now() - (await fs.stat(file)).mtimeMs;
  } catch {
    return Infinity;
  }
}
