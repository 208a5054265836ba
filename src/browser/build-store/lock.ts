import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import type { Logger } from '../../log.ts';

// A cross-process lock around one install, so two servers starting at once
// download once. The file is created with O_EXCL; its owner touches it as a
// heartbeat. It is stale when its pid is gone (same host) or the heartbeat is
// old (a hung process, or another host sharing the cache over NFS).
const HEARTBEAT_MS = 5_000;
const STALE_AFTER_MS = 60_000;
const DEFAULT_WAIT_MS = 20 * 60_000;

interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(file: string): Promise<boolean> {
  const [stat, text] = await Promise.all([fs.stat(file).catch(() => undefined), fs.readFile(file, 'utf8').catch(() => undefined)]);
  if (!stat) return false; // gone: just retry
  if (Date.now() - stat.mtimeMs > STALE_AFTER_MS) return true;
  let owner: LockOwner | undefined;
  try {
    owner = JSON.parse(text ?? '') as LockOwner;
  } catch {
    // Written but not yet filled in, or garbage: only age can tell.
    return false;
  }
  return owner.hostname === os.hostname() && typeof owner.pid === 'number' && !pidAlive(owner.pid);
}

/** Runs `fn` holding `file`; waits (with back-off) while another live process holds it. */
export async function withLock<T>(file: string, log: Logger, fn: () => Promise<T>, waitMs = DEFAULT_WAIT_MS): Promise<T> {
  const deadline = Date.now() + waitMs;
  let delay = 100;
  let told = false;
  for (;;) {
    const handle = await fs.open(file, 'wx', 0o644).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (handle) {
      const owner: LockOwner = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };
      await handle.writeFile(JSON.stringify(owner));
      await handle.close();
      const heartbeat = setInterval(() => {
        const now = new Date();
        void fs.utimes(file, now, now).catch(() => {});
      }, HEARTBEAT_MS);
      heartbeat.unref();
      try {
        return await fn();
      } finally {
        clearInterval(heartbeat);
        await fs.rm(file, { force: true });
      }
    }
    if (await isStale(file)) {
      // Move it aside first: of two processes that both saw it stale, only one
      // rename succeeds, so a fresh lock taken meanwhile is never deleted.
      const aside = `${file}.stale-${crypto.randomBytes(4).toString('hex')}`;
      if (await fs.rename(file, aside).then(() => true, () => false)) {
        log.warn(`removed a stale install lock ${file} (its process is gone)`);
        await fs.rm(aside, { force: true });
      }
      continue;
    }
    if (!told) {
      log.info(`waiting for another process that is installing the stealth build (lock ${file})`);
      told = true;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(waitMs / 1000)} s waiting for the install lock ${file}. Fix: if no other stealth-playwright-mcp is installing, delete that file.`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 2_000);
  }
}
