import childProcess, { type ChildProcess } from 'node:child_process';
import { isBrowserLaunch } from '../spawn-ahead/spawn-recipe.ts';
import { tapDevtoolsPipe } from './pipe-tap.ts';
import type { QuietRuntime, ShimCounters } from './runtime-shim.ts';

// Which launches get the shim is the launch's own business (a setting, per
// session): a launch that wants it carries this switch, which Chromium
// ignores like the instance marker. Playwright spawns; the hook, under
// whatever else hooks spawn (spawn-ahead.ts), taps the pipe of the process it
// gets back, before Playwright reads it.

export const QUIET_RUNTIME_SWITCH = '--stealth-playwright-mcp-quiet-runtime';

let installed = false;
const tapped = new WeakMap<ChildProcess, QuietRuntime>();
const totals: ShimCounters = { syncs: 0, contextsCreated: 0, contextsDestroyed: 0 };
const live = new Set<QuietRuntime>();

export function installQuietRuntimeHook(): void {
  if (installed) return;
  installed = true;
  const inner = childProcess.spawn;
  childProcess.spawn = function (this: unknown, command: string, args: readonly string[], options: unknown): ChildProcess {
    const child = (inner as (...a: unknown[]) => ChildProcess).apply(this, [command, args, options]);
    if (Array.isArray(args) && args.includes(QUIET_RUNTIME_SWITCH) && args.includes('--remote-debugging-pipe') && isBrowserLaunch(options) && !tapped.has(child)) {
      const shim = tapDevtoolsPipe(child);
      if (shim) {
        tapped.set(child, shim);
        live.add(shim);
        child.once('exit', () => {
          for (const key of Object.keys(totals) as (keyof ShimCounters)[]) totals[key] += shim.counters[key];
          live.delete(shim);
        });
      }
    }
    return child;
  } as typeof childProcess.spawn;
}

/** Context syncs and the context events they gave Playwright, over every browser of this process (for stealth_bridge_info). */
export function quietRuntimeCounters(): ShimCounters {
  const out = { ...totals };
  for (const shim of live) for (const key of Object.keys(out) as (keyof ShimCounters)[]) out[key] += shim.counters[key];
  return out;
}
