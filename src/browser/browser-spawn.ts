import childProcess, { type ChildProcess, type SpawnOptions } from 'node:child_process';
import { withDeadline } from './deadline.ts';

// Playwright starts Chromium with child_process.spawn (processLauncher.ts),
// and several parts of ours act on that one call. One hook, installed with
// the first of them, runs them in a fixed order whatever order they register
// in:
//   1. a provider may hand Playwright a process started ahead instead
//      (spawn-ahead), or start one as usual;
//   2. every real browser start, Playwright's or one started ahead, gets its
//      switches rewritten (feature lists merged: chromium-features.ts) and is
//      reported to the watchers of started processes (throwaway profiles);
//   3. the process Playwright gets back is reported to the watchers of
//      launches (the quiet runtime's pipe tap) before Playwright reads it.
// Other spawns (ffmpeg, a shell) pass untouched.

export type BrowserStart = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;
type Watcher = (child: ChildProcess, args: readonly string[]) => void;

let realSpawn: typeof childProcess.spawn | undefined;
let rewrite: ((args: readonly string[]) => string[]) | undefined;
let provider: ((command: string, args: readonly string[], options: SpawnOptions, start: BrowserStart) => ChildProcess) | undefined;
const started: Watcher[] = [];
const launched: Watcher[] = [];
// Playwright's close() resolves once the browser has closed its pipe, a moment
// before the process exits: Chromium is still removing its singleton-socket
// dir then. A server exiting in that moment has Playwright's exit hook SIGKILL
// the browser midway, which leaves that dir in TMPDIR.
const running = new Set<ChildProcess>();

/** Playwright's browser launches (processLauncher.ts): five pipes, no shell. */
export function isBrowserLaunch(options: unknown): options is SpawnOptions {
  const o = options as SpawnOptions | undefined;
  return Array.isArray(o?.stdio) && o.stdio.length === 5 && !o.shell;
}

function install(): typeof childProcess.spawn {
  if (realSpawn) return realSpawn;
  const spawn = childProcess.spawn;
  realSpawn = spawn;
  childProcess.spawn = function (this: unknown, ...a: unknown[]): ChildProcess {
    const [command, args, options] = a;
    if (typeof command !== 'string' || !Array.isArray(args) || !isBrowserLaunch(options)) return (spawn as (...a: unknown[]) => ChildProcess).apply(this, a);
    const child = provider ? provider(command, args, options, startBrowserProcess) : startBrowserProcess(command, args, options);
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      running.add(child);
      child.once('exit', () => running.delete(child));
    }
    for (const watch of launched) watch(child, args);
    return child;
  } as typeof childProcess.spawn;
  return spawn;
}

/** Starts a browser process for real: switches rewritten, watchers told. */
export function startBrowserProcess(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const spawn = install();
  const final = rewrite ? rewrite(args) : [...args];
  const child = spawn(command, final, options);
  for (const watch of started) watch(child, final);
  return child;
}

/** The rewrite of every browser start's switches (one: the feature merge). */
export function rewriteBrowserArgs(fn: (args: readonly string[]) => string[]): void {
  install();
  rewrite = fn;
}

/** Who answers Playwright's launches (one: spawn-ahead); `start` starts one as usual. */
export function provideBrowserProcess(fn: (command: string, args: readonly string[], options: SpawnOptions, start: BrowserStart) => ChildProcess): void {
  install();
  provider = fn;
}

/** Told of every browser process started, with its final switches. */
export function onBrowserStarted(watch: Watcher): void {
  install();
  started.push(watch);
}

/** Told of the process each of Playwright's launches gets, with the switches Playwright asked for. */
export function onBrowserLaunched(watch: Watcher): void {
  install();
  launched.push(watch);
}

/** Resolves once every browser Playwright launched here has exited, or after `ms`. */
export async function browsersExited(ms: number): Promise<void> {
  const exits = [...running].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  if (exits.length) await withDeadline(Promise.all(exits), ms);
}
