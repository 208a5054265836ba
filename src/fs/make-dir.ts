import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

// fs.mkdir({ recursive: true }) spins forever on some pseudo file systems
// (`mkdir -p /proc/x` answers ENOENT for a parent that exists, and Node
// retries it). One mkdir per path component is bounded by the path's length
// and fails with the real reason.

function componentsOf(dir: string): string[] {
  const resolved = path.resolve(dir);
  const out: string[] = [];
  for (let current = resolved; ; current = path.dirname(current)) {
    out.unshift(current);
    if (path.dirname(current) === current) break;
  }
  return out;
}

function failure(dir: string, component: string, error: NodeJS.ErrnoException): NodeJS.ErrnoException {
  const wrapped = new Error(`cannot create ${dir}: ${component} ${error.code === 'EEXIST' ? 'is not a directory' : `(${error.code ?? error.message})`}`) as NodeJS.ErrnoException;
  wrapped.code = error.code === 'EEXIST' ? 'ENOTDIR' : error.code;
  return wrapped;
}

export async function makeDir(dir: string, mode?: number): Promise<void> {
  for (const component of componentsOf(dir)) {
    try {
      await fs.mkdir(component, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw failure(dir, component, error as NodeJS.ErrnoException);
      const stat = await fs.stat(component).catch(() => undefined);
      if (!stat?.isDirectory()) throw failure(dir, component, error as NodeJS.ErrnoException);
    }
  }
}

export function makeDirSync(dir: string, mode?: number): void {
  for (const component of componentsOf(dir)) {
    try {
      fsSync.mkdirSync(component, { mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw failure(dir, component, error as NodeJS.ErrnoException);
      if (!fsSync.statSync(component, { throwIfNoEntry: false })?.isDirectory()) throw failure(dir, component, error as NodeJS.ErrnoException);
    }
  }
}
