import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Kept between runs (CI included) so each Node is downloaded from npm once. */
export const RUNTIME_CACHE = process.env.STEALTH_TEST_CACHE ?? path.join(os.homedir(), '.cache', 'stealth-playwright-mcp-tests');

/**
 * The bin directory of an exact Node version, installed from the npm `node`
 * package (its install script fetches the platform binary from npm too).
 */
export async function nodeRuntime(version: string): Promise<string> {
  const dir = path.join(RUNTIME_CACHE, `node-${version}`);
  const bin = path.join(dir, 'node_modules', '.bin');
  if (fs.existsSync(path.join(bin, 'node'))) return bin;
  const staging = `${dir}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  try {
    await run('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', `node@${version}`], { timeout: 180_000 });
  } catch (error) {
    throw new Error(`could not install Node ${version} from the npm registry (npm install node@${version}): ${(error as Error).message}`);
  }
  const { stdout } = await run(path.join(staging, 'node_modules', '.bin', 'node'), ['--version']);
  if (stdout.trim() !== `v${version}`) throw new Error(`npm's node@${version} reports ${stdout.trim()}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  return bin;
}
