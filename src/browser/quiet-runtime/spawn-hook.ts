import type { ChildProcess } from 'node:child_process';
import { onBrowserLaunched } from '../browser-spawn.ts';
import type { UserAgentOverride } from '../client-hints.ts';
import { tapDevtoolsPipe } from './pipe-tap.ts';
import type { QuietRuntime } from './runtime-shim.ts';
import { quietRuntimeLaunch } from './switch.ts';

// Playwright launches; the pipe of the process it gets back (started now or
// ahead: browser-spawn.ts) is tapped before Playwright reads it, and the shim
// filed under the launch's token. What the shim needs before the first
// target attaches (a persistent context's first page comes with the launch)
// is filed under the same token by the launch beforehand.

let installed = false;
const tapped = new WeakSet<ChildProcess>();
const byToken = new Map<string, QuietRuntime>();
const expected = new Map<string, { userAgent?: UserAgentOverride }>();

/** What the shim of the launch with this token gets; the returned function forgets it (call when the launch is over). */
export function expectQuietRuntime(token: string, options: { userAgent?: UserAgentOverride }): () => void {
  expected.set(token, options);
  return () => expected.delete(token);
}

export function installQuietRuntimeHook(): void {
  if (installed) return;
  installed = true;
  onBrowserLaunched((child, args) => {
    const launch = quietRuntimeLaunch(args);
    if (!launch || !args.includes('--remote-debugging-pipe') || tapped.has(child)) return;
    const { token } = launch;
    // Headless, and no persistent profile (whose first window Playwright sizes otherwise): headless-window.ts.
    const headlessWindow = args.some((a) => a === '--headless' || a.startsWith('--headless=')) && args.includes('--no-startup-window');
    const shim = tapDevtoolsPipe(child, { keepConsole: launch.console, userAgent: expected.get(token)?.userAgent, headlessWindow });
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
