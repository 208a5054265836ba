import fs from 'node:fs/promises';
import path from 'node:path';
import type { PlatformTag } from './platform.ts';
import { compareVersions } from './platform.ts';
import { readInstalled, type Receipt } from './receipt.ts';

export type Tier = 'keyless' | 'keyed';

/**
 * <cache>/builds/<version>-<platform>[-keyed]/   complete builds (with a receipt)
 * <cache>/builds/<name>.staging-<rand>/          an install in progress
 * <cache>/.locks/<name>.lock                     cross-process install lock
 * <cache>/.tmp/<name>-<rand>.part                an archive being downloaded
 * <cache>/license.key                            saved login (0600)
 */
export function cacheLayout(cacheDir: string) {
  return {
    builds: path.join(cacheDir, 'builds'),
    locks: path.join(cacheDir, '.locks'),
    tmp: path.join(cacheDir, '.tmp'),
    licence: path.join(cacheDir, 'license.key'),
  };
}

export function buildName(version: string, tag: PlatformTag, tier: Tier): string {
  return `${version}-${tag}${tier === 'keyed' ? '-keyed' : ''}`;
}

export interface InstalledBuild {
  dir: string;
  executablePath: string;
  receipt: Receipt;
}

/** Every complete build in the cache, newest first; reads only (a read-only cache works). */
export async function listInstalled(cacheDir: string): Promise<InstalledBuild[]> {
  const { builds } = cacheLayout(cacheDir);
  const names = await fs.readdir(builds).catch(() => [] as string[]);
  const out: InstalledBuild[] = [];
  for (const name of names) {
    if (name.includes('.staging-') || name.includes('.stale-')) continue;
    const dir = path.join(builds, name);
    const receipt = await readInstalled(dir);
    if (receipt) out.push({ dir, executablePath: path.join(dir, receipt.executable), receipt });
  }
  return out.sort((a, b) => compareVersions(a.receipt.version, b.receipt.version));
}

/** The build a launch would use: the pinned keyless one, or the newest keyed one. */
export async function findInstalled(cacheDir: string, tag: PlatformTag, tier: Tier, version?: string): Promise<InstalledBuild | undefined> {
  const all = await listInstalled(cacheDir);
  return all.find((b) => b.receipt.platform === tag && b.receipt.tier === tier && (version === undefined || b.receipt.version === version));
}
