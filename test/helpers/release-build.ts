import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './server.ts';

const run = promisify(execFile);

/** Where the tests' release build lives (kept between runs, rebuilt when sources change). */
export const RELEASE_DIR = path.join(ROOT, 'dist', 'test-release');
export const TARGETS = ['linux-x64', 'linux-arm64'] as const;
export const binaryPath = (target: (typeof TARGETS)[number], dir = RELEASE_DIR) => path.join(dir, `stealth-playwright-mcp-${target}`);

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/**
 * The standalone binaries for every target plus SHA256SUMS, built by build.ts
 * exactly as a release is. Compiling takes seconds, so it is reused while no
 * source, build script or dependency is newer than it.
 */
export async function releaseBuild(): Promise<string> {
  const stamp = path.join(RELEASE_DIR, 'SHA256SUMS');
  const inputs = ['src', 'build', 'build.ts', 'package.json', 'package-lock.json'].map((p) => newestMtime(path.join(ROOT, p)));
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs > Math.max(...inputs)) return RELEASE_DIR;
  // build.ts builds aside and swaps the directory in: a concurrent test run never sees half a release.
  await run(path.join(ROOT, 'node_modules', '.bin', 'bun'), ['run', 'build.ts', '--bin', '--outdir', RELEASE_DIR], { cwd: ROOT, timeout: 300_000 });
  return RELEASE_DIR;
}
