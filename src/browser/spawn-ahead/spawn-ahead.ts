import type { ChildProcess, SpawnOptions } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../log.ts';
import { provideBrowserProcess, startBrowserProcess, type BrowserStart } from '../browser-spawn.ts';
import { mergeFeatureSwitchesAtSpawn } from '../chromium-features.ts';
import { PACKAGE_VERSION } from '../../package-info.ts';
import { killProcessGroup, removeThrowawayDirs } from './throwaway-profile.ts';
import { openTargetAhead, type TargetAheadReport } from './target-ahead.ts';
import { nextProfile, takeSpare, templateKey } from './profile-template.ts';
import { noteLaunchProfile, startPrepared } from './prepared-start.ts';
import { fillRecipe, PROFILE_PREFIX, readRecipe, recipeFile, recipeKey, sameLaunch, throwawayProfileOf, toRecipe, writeRecipe, type SpawnRecipe } from './spawn-recipe.ts';

// Over stdio the first tool call waits for Chromium's start (~200 ms), which
// itself waits for playwright-core to load (~100 ms in the binary, ~300 ms on
// Node) and the upstream config to resolve. Neither is needed to start the
// process: the command line is the one the last start with the same inputs
// used. So Chromium starts first, from that recipe, and when Playwright asks
// for the very same process a moment later, it gets the running one. The
// browser is the same either way: same executable, switches and environment;
// only the time differs. Anything that does not match exactly is killed and
// Playwright spawns as usual.

/** How long an unclaimed process may wait for Playwright (a start that failed on the way). */
const CLAIM_DEADLINE_MS = 60_000;
/** Recipes kept (one per set of inputs); the oldest go first. */
const KEPT_RECIPES = 16;
// Inputs that decide the command line; the rest of the environment reaches
// Chromium the same way on both paths, as the process's own.
const KEY_ENV = /^(PLAYWRIGHT_|STEALTH_|CLOAKBROWSER_|HOME$|XDG_|DISPLAY$|WAYLAND_DISPLAY$|TMPDIR$)/;

interface Ahead {
  command: string;
  args: string[];
  child: ChildProcess;
  profileDir: string;
}

export type SpawnAheadReport = {
  state: 'adopted' | 'off' | 'no recipe yet' | 'recorded' | 'discarded' | 'not recordable' | 'pending';
  why?: string;
  firstPage?: TargetAheadReport;
  /** Whether the browser started ahead got a profile Chromium had made before (profile-template.ts), or a fresh one. */
  profile?: 'prepared' | 'fresh';
};

let run:
  | {
      file: string;
      stored: SpawnRecipe | undefined;
      seed: number;
      marker: string | undefined;
      log: Logger;
      ahead?: Ahead;
      recorded: boolean;
      report: SpawnAheadReport;
      firstPage?: ReturnType<typeof openTargetAhead>;
      profile?: 'prepared' | 'fresh';
      nextProfileFor?: string;
    }
  | undefined;

/** What happened to this process's early start, for stealth_bridge_info. */
export function spawnAheadReport(): SpawnAheadReport {
  if (!run) return { state: 'off' };
  if (run.report.state !== 'adopted') return run.report;
  return { ...run.report, ...(run.firstPage ? { firstPage: run.firstPage.report() } : {}), ...(run.profile ? { profile: run.profile } : {}) };
}

/**
 * Starts Chromium from the recipe, if there is one, and watches Playwright's
 * first launch to adopt it or to record the recipe for the next start.
 * Returns the fingerprint seed the session's launch plan must use.
 */
export function spawnAhead(options: { runtimeDir: string; argv: readonly string[]; marker: string | undefined; log: Logger }): number {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => KEY_ENV.test(name)));
  const key = recipeKey({ argv: options.argv, env, cwd: process.cwd(), version: `${PACKAGE_VERSION} ${process.version}`, execPath: process.execPath });
  const file = recipeFile(options.runtimeDir, key);
  const seed = crypto.randomInt(10_000, 100_000);
  const recipe = readRecipe(file);
  // The recipe keeps Playwright's own command line; both paths start it merged (browser-spawn.ts).
  mergeFeatureSwitchesAtSpawn();
  run = { file, stored: recipe, seed, marker: options.marker, log: options.log, recorded: false, report: { state: 'no recipe yet' } };
  provideBrowserProcess(answerLaunch);
  if (!recipe) return seed;
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), PROFILE_PREFIX));
  const template = templateKey(recipe);
  run.profile = template !== undefined && takeSpare(template, profileDir) ? 'prepared' : 'fresh';
  const args = fillRecipe(recipe, { profileDir, seed, marker: options.marker });
  if (!args || !fs.existsSync(recipe.command)) {
    removeThrowawayDirs([profileDir]);
    run.report = { state: 'discarded', why: args ? `${recipe.command} is gone` : 'no instance marker' };
    return seed;
  }
  // As Playwright spawns it (processLauncher.ts): its own process group, the
  // DevTools pipe on fds 3 and 4, this process's environment.
  const child = startBrowserProcess(recipe.command, args, { detached: process.platform !== 'win32', env: process.env, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
  // Unclaimed, it must not keep this process alive; Playwright's own handles do once it is claimed.
  setRef(child, false);
  // A launch of Playwright's that opens pages in contexts of its own (not a persistent profile's window).
  if (args.includes('--no-startup-window') && args.includes('--remote-debugging-pipe')) run.firstPage = openTargetAhead(child);
  const ahead: Ahead = { command: recipe.command, args, child, profileDir };
  run.ahead = ahead;
  run.report = { state: 'pending' };
  // At once, as Playwright removes its own profile before close() resolves: the
  // process may exit right after, with an asynchronous removal still half done.
  let closed = false;
  child.once('close', () => {
    closed = true;
    // A discarded one was killed: Chromium left its socket dir too.
    removeThrowawayDirs([profileDir]);
  });
  child.once('error', (error) => discard(`it did not start: ${error.message}`));
  const deadline = setTimeout(() => discard(`Playwright did not claim it within ${CLAIM_DEADLINE_MS / 1000} s`), CLAIM_DEADLINE_MS);
  deadline.unref();
  child.once('close', () => clearTimeout(deadline));
  // Whatever ends this process ends this browser too (Playwright kills a claimed one on exit
  // as well, but maybe after this handler), then its profile. A closed one's pid may be reused.
  process.once('exit', () => {
    if (closed) return;
    killProcessGroup(child);
    removeThrowawayDirs([profileDir]);
  });
  options.log.debug(`browser started ahead from ${path.basename(file)} (pid ${child.pid})`);
  return seed;
}

function setRef(child: ChildProcess, ref: boolean): void {
  for (const handle of [child, ...child.stdio] as ({ ref?(): void; unref?(): void } | null)[]) {
    if (ref) handle?.ref?.();
    else handle?.unref?.();
  }
}

function discard(why: string): void {
  const ahead = run?.ahead;
  if (!run || !ahead) return;
  run.ahead = undefined;
  run.report = { state: 'discarded', why };
  killProcessGroup(ahead.child);
  run.log.debug(`browser started ahead was not used: ${why}`);
}

/** Playwright's launch: the process started ahead if it is the very same launch, else a new one. */
function answerLaunch(command: string, args: readonly string[], options: SpawnOptions, start: BrowserStart): ChildProcess {
  const current = run;
  if (!current) return start(command, args, options);
  if (current.recorded) return startPrepared(command, args, options, start, current);
  current.recorded = true;
  // Another environment (a licence key for the keyed build) cannot be started ahead without it on disk.
  const ownEnv = options.env === process.env;
  const recipe = ownEnv ? toRecipe(command, args, { seed: current.seed, marker: current.marker }) : 'its own environment';
  if (typeof recipe !== 'string') prepareNextProfile(current, recipe);
  const ahead = current.ahead;
  current.ahead = undefined;
  if (ahead) {
    const alive = ahead.child.pid !== undefined && ahead.child.exitCode === null && ahead.child.signalCode === null;
    if (ownEnv && alive && ahead.command === command && sameLaunch(ahead.args, args) && options.detached === (process.platform !== 'win32')) {
      setRef(ahead.child, true);
      // The profile Playwright made for this launch stays empty: the adopted browser has its own.
      removeThrowawayDirs([throwawayProfileOf(args)].filter((dir) => dir !== undefined));
      current.report = { state: 'adopted' };
      if (current.profile) noteLaunchProfile(ahead.child, args, current.profile);
      current.firstPage?.adopted();
      current.log.debug('Playwright adopted the browser started ahead');
      return ahead.child;
    }
    current.ahead = ahead;
    discard(!alive ? 'it exited before Playwright asked for it' : 'the launch differs from the recipe (settings changed since the last start)');
  }
  if (typeof recipe === 'string') {
    if (!ahead) current.report = { state: 'not recordable', why: recipe };
    fs.rmSync(current.file, { force: true });
  } else if (JSON.stringify(recipe) !== JSON.stringify(current.stored)) {
    try {
      writeRecipe(current.file, recipe);
      prune(path.dirname(current.file));
      if (!ahead) current.report = { state: 'recorded', why: 'the next start with these settings starts Chromium ahead' };
    } catch (error) {
      current.log.debug(`cannot keep the launch recipe: ${(error as Error).message}`);
    }
  }
  // Its own throwaway profile, made by Chromium as it starts.
  const child = start(command, args, options);
  if (throwawayProfileOf(args)) noteLaunchProfile(child, args, 'fresh');
  return child;
}

/** Once the start is under way, the profile the next start with this recipe takes; at exit at the latest its copy. */
function prepareNextProfile(current: NonNullable<typeof run>, recipe: SpawnRecipe): void {
  const key = templateKey(recipe);
  if (key === undefined || current.nextProfileFor === key) return;
  current.nextProfileFor = key;
  const next = nextProfile(recipe, key, { marker: current.marker, log: current.log });
  // Only a missing template is worth work during the session; copying a spare (~20 ms of disk and
  // CPU) is left to the exit, where nothing waits for it (a client's first call 2 s after tools/list
  // took ~40 ms longer with it here).
  if (!next.ready()) next.prepareSoon();
  process.once('exit', () => next.spareNow());
}

function prune(dir: string): void {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ file: path.join(dir, name), at: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { file } of files.slice(KEPT_RECIPES)) fs.rmSync(file, { force: true });
}
