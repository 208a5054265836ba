import os from 'node:os';
import path from 'node:path';

// Where each server instance records which browsers it owns. Private to this
// user: a record names processes to kill, so nobody else may plant one.

export function defaultRuntimeDir(): string {
  const xdg = process.env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'stealth-playwright-mcp');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(os.tmpdir(), `stealth-playwright-mcp-${uid}`);
}
