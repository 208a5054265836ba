import { mkdir, rename, rm } from 'node:fs/promises';

export async function emptyDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

/** Replaces `target` with `staged`: the old one goes aside first, so `target` is missing only between two renames. */
export async function swapDir(staged: string, target: string): Promise<void> {
  const old = `${target}.old-${process.pid}`;
  await rename(target, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staged, target);
  await rm(old, { recursive: true, force: true });
}
