import path from 'node:path';
import { userTempDir } from '../fs/private-dir.ts';

// Where each server instance records which browsers it owns. Private to this
// user: a record names processes to kill, so nobody else may plant one.

export function defaultRuntimeDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'stealth-playwright-mcp');
  return userTempDir('stealth-playwright-mcp');
}
