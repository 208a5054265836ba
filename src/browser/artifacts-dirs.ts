import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Playwright gives every browser it launches a temp dir for its downloads,
// traces and videos (`playwright-artifacts-*` in TMPDIR, browserType.ts
// _prepareToLaunch), made with fs.promises.mkdtemp and nowhere on the
// browser's command line. It removes that dir asynchronously once the browser
// has exited: a server that exits in that moment (a session closed just
// before it stopped), or is SIGKILLed, leaves it behind, one per browser.
// Watching the mkdtemp is the one place its path is known.

export const ARTIFACTS_PREFIX = 'playwright-artifacts-';

type Watcher = (dir: string) => void;
const watchers: Watcher[] = [];

/** A dir of Playwright's artifacts: directly in TMPDIR, with its prefix. */
function isArtifactsDir(dir: string): boolean {
  return path.isAbsolute(dir) && path.basename(dir).startsWith(ARTIFACTS_PREFIX) && path.dirname(dir) === path.resolve(os.tmpdir());
}

/** Told of every artifacts dir Playwright makes in this process from now on. */
export function onArtifactsDir(watch: Watcher): void {
  watchers.push(watch);
  if (watchers.length > 1) return;
  const promises = fs.promises;
  const mkdtemp = promises.mkdtemp as (prefix: string, options?: unknown) => Promise<string | Buffer>;
  promises.mkdtemp = async function (this: unknown, prefix: string, options?: unknown) {
    const dir = await mkdtemp.call(this, prefix, options);
    if (typeof dir === 'string' && isArtifactsDir(dir)) for (const w of watchers) w(dir);
    return dir;
  } as typeof promises.mkdtemp;
}
