import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDirSync } from '../fs/make-dir.ts';

// Where each server instance records which browsers it owns. Private to this
// user: a record names processes to kill, so nobody else may plant one.

export function defaultRuntimeDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'stealth-playwright-mcp');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `stealth-playwright-mcp-${uid}`);
}

/** Creates `dir` (0700) when missing; refuses one that is a symlink or belongs to another user. */
export function ensurePrivateDir(dir: string): void {
  makeDirSync(dir, 0o700);
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) throw new Error(`${dir} belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}
