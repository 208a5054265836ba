import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDirSync } from './make-dir.ts';

// Directories whose contents decide what runs or what a browser starts from
// (instance records, launch recipes, profile templates): nobody else may plant
// anything there.

/** Creates `dir` (0700) when missing; refuses one that is a symlink or belongs to another user. */
export function ensurePrivateDir(dir: string): void {
  makeDirSync(dir, 0o700);
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (!ownedByUs(stat)) throw new Error(`${dir} belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** A directory (not a symlink) of this user's that no one else may write to; false when missing. */
export function isPrivateDir(dir: string): boolean {
  return isOwnDir(dir) && (fs.lstatSync(dir).mode & 0o022) === 0;
}

export function ownedByUs(stat: fs.Stats): boolean {
  return typeof process.getuid !== 'function' || stat.uid === process.getuid();
}

/** `<tmp>/<name>-<uid>`: a per-user dir under the temp dir, for when no better place is set. */
export function userTempDir(name: string): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `${name}-${uid}`);
}

/** A directory (not a symlink) of this user's; false when missing. */
export function isOwnDir(dir: string): boolean {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  return Boolean(stat?.isDirectory() && ownedByUs(stat));
}
