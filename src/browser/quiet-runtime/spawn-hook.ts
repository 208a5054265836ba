import type { ChildProcess } from 'node:child_process';
import { onBrowserLaunched } from '../browser-spawn.ts';
import { tapDevtoolsPipe } from './pipe-tap.ts';
import type { QuietRuntime } from './runtime-shim.ts';
import { quietRuntimeLaunch } from './switch.ts';

// Playwright launches; the pipe of the process it gets back (started now or
// ahead: browser-spawn.ts) is tapped before Playwright reads it, and the shim
// filed under the launch's token.

let installed = false;
const tapped = new WeakSet<ChildProcess>();
const byToken = new Map<string, QuietRuntime>();

export function installQuietRuntimeHook(): void {
  if (installed) return;
  installed = true;
  onBrowserLaunched((child, args) => {
    const launch = quietRuntimeLaunch(args);
    if (!launch || !args.includes('--remote-debugging-pipe') || tapped.has(child)) return;
    const { token } = launch;
    const shim = tapDevtoolsPipe(child, { keepConsole: launch.console });
    if (!shim) return;
    tapped.add(child);
    byToken.set(token, shim);
    // A launch that failed never takes its shim: the map must not keep it.
    child.once('exit', () => byToken.delete(token));
  });
}

/** The shim of the launch that carried this token (once: the launch owns it from then on). */
export function takeQuietRuntime(token: string): QuietRuntime | undefined {
  const shim = byToken.get(token);
  byToken.delete(token);
  return shim;
}
