import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './server.ts';

/** PATH without any node_modules directory (npm puts node_modules/.bin first during npm test). */
export function pathWithoutNodeModules(): string {
  return (process.env.PATH ?? '').split(':').filter((dir) => dir && !dir.split(path.sep).includes('node_modules')).join(':');
}

/** Whether this process may make a private mount namespace (root, or a user namespace). */
export function canHideBuildTree(): boolean {
  return spawnSync('unshare', ['-m', 'sh', '-c', `mount --bind /tmp /tmp`], { stdio: 'ignore' }).status === 0;
}

/**
 * Writes an executable wrapper that runs `binary` with the whole build tree
 * (ROOT, and so its node_modules) hidden under an empty directory, in a private
 * mount namespace. Inside the build tree a binary can load files through the
 * build machine's absolute paths that Bun bakes in; a user's machine has none.
 */
export function hiddenTreeWrapper(dir: string, binary: string): string {
  const empty = path.join(dir, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  const wrapper = path.join(dir, 'run-isolated');
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const inner = 'mount --bind "$1" "$2" && bin=$3 && shift 3 && exec "$bin" "$@"';
  fs.writeFileSync(wrapper, `#!/bin/sh\nexec unshare -m sh -c ${quote(inner)} sh ${[empty, ROOT, binary].map(quote).join(' ')} "$@"\n`, { mode: 0o755 });
  return wrapper;
}
