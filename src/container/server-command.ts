import type { Env } from '../config/load.ts';
import { isCompiledBinary } from '../runtime.ts';

/**
 * How the launcher runs the server: this same program, with the launcher's
 * arguments (so `launcher --transport streamable-http` serves HTTP and
 * `launcher doctor` runs doctor). The compiled binary is its own executable;
 * on Node it is node + the script (+ the runtime flags it was started with).
 * STEALTH_TEST_LAUNCHER_SERVER (a JSON array: file and leading arguments)
 * replaces the program, for tests that need a child which misbehaves.
 */
export function serverCommand(args: readonly string[], env: Env = process.env): { file: string; args: string[] } {
  const override = env.STEALTH_TEST_LAUNCHER_SERVER;
  if (override) {
    const parsed = JSON.parse(override) as unknown;
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((a) => typeof a === 'string')) {
      throw new Error('STEALTH_TEST_LAUNCHER_SERVER must be a JSON array of strings (file, then arguments)');
    }
    return { file: parsed[0] as string, args: [...(parsed.slice(1) as string[]), ...args] };
  }
  const script = process.argv[1];
  if (script === undefined || isCompiledBinary(script)) return { file: process.execPath, args: [...args] };
  return { file: process.execPath, args: [...process.execArgv, script, ...args] };
}
