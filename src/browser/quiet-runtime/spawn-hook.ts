import childProcess, { type ChildProcess } from 'node:child_process';
import { isBrowserLaunch } from '../spawn-ahead/spawn-recipe.ts';
import { tapDevtoolsPipe } from './pipe-tap.ts';
import type { QuietRuntime } from './runtime-shim.ts';
import { quietRuntimeToken } from './switch.ts';

// Playwright spawns; the hook, under whatever else hooks spawn
// (spawn-ahead.ts), taps the pipe of the process it gets back, before
// Playwright reads it, and files the shim under the launch's token.

let installed = false;
const tapped = new WeakSet<ChildProcess>();
const byToken = new Map<string, QuietRuntime>();

export function installQuietRuntimeHook(): void {
  if (installed) return;
  installed = true;
  const inner = childProcess.spawn;
  childProcess.spawn = function (this: unknown, command: string, args: readonly string[], options: unknown): ChildProcess {
    const child = (inner as (...a: unknown[]) => ChildProcess).apply(this, [command, args, options]);
    const token = Array.isArray(args) ? quietRuntimeToken(args) : undefined;
    if (token !== undefined && args.includes('--remote-debugging-pipe') && isBrowserLaunch(options) && !tapped.has(child)) {
      const shim = tapDevtoolsPipe(child);
      if (shim) {
        tapped.add(child);
        byToken.set(token, shim);
        // A launch that failed never takes its shim: the map must not keep it.
        child.once('exit', () => byToken.delete(token));
      }
    }
    return child;
  } as typeof childProcess.spawn;
}

/** The shim of the launch that carried this token (once: the launch owns it from then on). */
export function takeQuietRuntime(token: string): QuietRuntime | undefined {
  const shim = byToken.get(token);
  byToken.delete(token);
  return shim;
}
