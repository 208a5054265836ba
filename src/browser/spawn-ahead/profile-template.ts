import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../log.ts';
import { ensurePrivateDir, isOwnDir, isPrivateDir, ownedByUs, userTempDir } from '../../fs/private-dir.ts';
import { removeTreeSync } from '../../fs/remove-tree.ts';
import { startBrowserProcess } from '../browser-spawn.ts';
import { driveToClose } from './drive-to-close.ts';
import { fillRecipe, type SpawnRecipe } from './spawn-recipe.ts';
import { killProcessGroup } from './throwaway-profile.ts';
import { QUIET_RUNTIME_SWITCH } from '../quiet-runtime/switch.ts';

// A browser started ahead still spends ~100 ms of the start making its fresh
// throwaway profile (Local State, the Default profile's databases and
// folders), on the cores playwright-core's load also wants. A profile that
// Chromium made earlier, with the same switches and no page ever shown in
// it, spares that: Chromium opens the files instead of creating them.
// Alternating starts through a stdio client, 24 each (2026-12-05): spawn ->
// first navigate 619 ms with such a profile in place, 693 ms with a fresh
// one; copied from the template during the start instead, 756 ms (the copy
// costs more than it saves), so the copy for the next start is made during
// or at the end of this one. What a page sees does not change: its context
// is off the record, and the profile holds nothing of any session's.
//
// Under the temp dir (the throwaway profiles' file system, so a spare moves
// into place by a rename), in a private dir of this user's:
//   template-<key>   made once per launch (switches and browser program) by a
//                    browser of its own, at low priority, after a start;
//   spare-<key>      a copy of it, taken whole by the next start.

/** After a launch, before making the template it lacked (the launch is under way by then). */
const TEMPLATE_DELAY_MS = 2000;
/** The template's browser: started, one page opened in a context of its own, closed. */
const TEMPLATE_DEADLINE_MS = 20_000;
/** After killing the template's browser, before removing its profile. */
const ABANDON_SETTLE_MS = 300;
/** Templates kept (one per launch); the oldest go first, with their spares. */
const KEPT_TEMPLATES = 4;
const TEMPLATE = 'template-';
const SPARE = 'spare-';
/** The template browser's own TMPDIR, beside the profiles root: `<prefix><server pid>-<random>`. */
const SOCKET_HOME = 'spm-template-';
const SOCKET_HOME_PID = new RegExp(`^${SOCKET_HOME}(\\d+)-`);

function profilesRoot(): string {
  return userTempDir('stealth-playwright-mcp-profiles');
}

/**
 * What a template is made for: the recipe's command line and the program's
 * file (a new browser version, a package upgrade, gets a template of its own);
 * none for a headed launch or one with extensions.
 */
export function templateKey(recipe: SpawnRecipe): string | undefined {
  // A headed browser would show the template's window on the user's screen.
  if (!recipe.args.some((arg) => arg === '--headless' || arg.startsWith('--headless='))) return undefined;
  // Extensions would run in the template's browser, and each session would start with what they
  // kept there, installed already (no first-install event), unlike a fresh profile's.
  if (recipe.args.some((arg) => arg.startsWith('--load-extension'))) return undefined;
  const stat = fs.statSync(recipe.command, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  // The quiet runtime's token is one per launch (and so in each recipe written).
  const args = recipe.args.map((arg) => (arg.startsWith(`${QUIET_RUNTIME_SWITCH}=`) ? QUIET_RUNTIME_SWITCH : arg));
  return crypto.createHash('sha256').update(JSON.stringify([recipe.command, args, stat.size, stat.mtimeMs, stat.ino])).digest('hex').slice(0, 32);
}

/** Moves the spare profile for `key` over `profileDir` (an empty dir); false when there is none to take. */
export function takeSpare(key: string, profileDir: string): boolean {
  const root = profilesRoot();
  if (!isPrivateDir(root)) return false;
  const spare = path.join(root, SPARE + key);
  const stat = fs.lstatSync(spare, { throwIfNoEntry: false });
  if (!stat?.isDirectory() || !ownedByUs(stat)) return false;
  try {
    // Whole or not at all: another start taking it at the same moment gets ENOENT.
    fs.renameSync(spare, profileDir);
    return true;
  } catch {
    return false;
  }
}

export interface NextProfile {
  /** Whether the template is there (the spare is then only a copy away). */
  ready(): boolean;
  /** Makes the template if there is none (a browser of its own, at low priority), then the spare. */
  prepare(): Promise<void>;
  /** The same, 2 s from now: after a launch, once it is under way. */
  prepareSoon(): void;
  /** The spare from an existing template, synchronously (~20 ms): for the exit of a short session. */
  spareNow(): void;
  /** The same without blocking the event loop: for a server whose other sessions go on meanwhile. */
  spareSoon(): Promise<void>;
}

// One per template: two copies of one spare at once would share its half-made dir.
const nextProfiles = new Map<string, NextProfile>();

/** The profile the next start with `recipe` takes; nothing happens until asked. */
export function nextProfile(recipe: SpawnRecipe, key: string, options: { marker: string | undefined; log: Logger }): NextProfile {
  let next = nextProfiles.get(key);
  if (!next) nextProfiles.set(key, (next = makeNextProfile(recipe, key, options)));
  return next;
}

function makeNextProfile(recipe: SpawnRecipe, key: string, options: { marker: string | undefined; log: Logger }): NextProfile {
  const root = profilesRoot();
  const template = path.join(root, TEMPLATE + key);
  const spare = path.join(root, SPARE + key);
  const partial = partialOf(spare);
  let making: Promise<void> | undefined;
  let copying: Promise<void> | undefined;
  const ready = () => isPrivateDir(root) && fs.existsSync(template);
  const needed = () => ready() && !fs.existsSync(spare);
  const failed = (error: unknown) => {
    fs.rmSync(partial, { recursive: true, force: true });
    options.log.debug(`no spare profile for the next start: ${(error as Error).message}`);
  };
  // In use: kept when older ones are pruned.
  const touch = () => fs.utimesSync(template, new Date(), new Date());
  const spareNow = () => {
    // An asynchronous copy still under way at exit is left half made: removed, and made whole here.
    // (The copy's writes may still land meanwhile: removeTreeSync checks the tree is gone.)
    if (copying) removeTreeSync(partial);
    if (!needed()) return;
    try {
      touch();
      fs.cpSync(template, partial, { recursive: true, errorOnExist: true, force: false });
      fs.chmodSync(partial, 0o700);
      fs.renameSync(partial, spare);
    } catch (error) {
      failed(error);
    }
  };
  // A server that exits mid-copy leaves no half-made spare.
  const abandonCopy = () => removeTreeSync(partial);
  const spareSoon = () =>
    (copying ??= (async () => {
      process.once('exit', abandonCopy);
      try {
        if (!needed()) return;
        touch();
        await fs.promises.cp(template, partial, { recursive: true, errorOnExist: true, force: false });
        await fs.promises.chmod(partial, 0o700);
        await fs.promises.rename(partial, spare);
      } catch (error) {
        failed(error);
      } finally {
        process.off('exit', abandonCopy);
        copying = undefined;
      }
    })());
  const prepare = () =>
    (making ??= (async () => {
      try {
        ensurePrivateDir(root);
        removeStale(root);
        if (!fs.existsSync(template)) await makeTemplate(recipe, template, options);
        await spareSoon();
      } catch (error) {
        options.log.debug(`no profile template: ${(error as Error).message}`);
      }
    })());
  return {
    ready,
    prepare,
    prepareSoon: () => void setTimeout(() => void prepare(), TEMPLATE_DELAY_MS).unref(),
    spareNow,
    spareSoon,
  };
}

function partialOf(dir: string): string {
  return `${dir}.${process.pid}.tmp`;
}

/** Runs the recipe's browser on a profile of its own, opens one blank page in a context of its own, closes it cleanly. */
async function makeTemplate(recipe: SpawnRecipe, template: string, options: { marker: string | undefined; log: Logger }): Promise<void> {
  const partial = partialOf(template);
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { mode: 0o700 });
  const args = fillRecipe(recipe, { profileDir: partial, seed: crypto.randomInt(10_000, 100_000), marker: options.marker });
  if (!args) {
    fs.rmSync(partial, { recursive: true, force: true });
    return;
  }
  const started = performance.now();
  // Chromium makes its singleton-socket dir in TMPDIR and only then links it from the profile; at
  // nice 19 on a loaded machine it can sit between the two for seconds, and killed there (the
  // server's exit) it left a dir nothing named. In a TMPDIR of its own (short: a socket's path
  // has ~108 bytes), everything it makes there goes with that dir.
  let socketHome: string;
  try {
    socketHome = fs.mkdtempSync(path.join(os.tmpdir(), `${SOCKET_HOME}${process.pid}-`));
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  // As Playwright starts it (and with this server's marker: a SIGKILLed server's next start reaps it).
  const child = startBrowserProcess(recipe.command, args, { detached: process.platform !== 'win32', env: { ...process.env, TMPDIR: socketHome }, stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  // Behind the session's own work; its helpers, forked later, inherit this.
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, 19);
    } catch {
      // the same priority as the session then
    }
  }
  for (const handle of [child, ...child.stdio] as ({ unref?(): void } | null)[]) handle?.unref?.();
  const abandon = () => {
    // An exited browser's pid may be reused.
    if (child.exitCode === null && child.signalCode === null) killProcessGroup(child);
    // A SIGKILL takes effect as each process next runs: one still writing into the profile made
    // its removal fail at a server's exit (ENOTEMPTY). The next template removes what is left.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ABANDON_SETTLE_MS);
    // What is still there after the retries is left to removeStale.
    for (const dir of [socketHome, partial]) removeTreeSync(dir);
  };
  process.once('exit', abandon);
  try {
    const closed = await driveToClose(child, TEMPLATE_DEADLINE_MS);
    if (!closed) {
      abandon();
      options.log.debug(`no profile template: its browser did not open a page and close within ${TEMPLATE_DEADLINE_MS / 1000} s`);
      return;
    }
    for (const name of ['SingletonLock', 'SingletonSocket', 'SingletonCookie']) fs.rmSync(path.join(partial, name), { force: true });
    try {
      fs.renameSync(partial, template);
    } catch {
      // another server made it meanwhile
      fs.rmSync(partial, { recursive: true, force: true });
    }
    options.log.debug(`profile template made in ${Math.round(performance.now() - started)} ms`);
  } finally {
    process.off('exit', abandon);
    // A browser that closed cleanly removed its socket dir itself.
    removeTreeSync(socketHome);
  }
}

/** Half-made entries of servers that are gone, and templates (with their spares) beyond the newest few. */
function removeStale(root: string): void {
  const entries = fs.readdirSync(root);
  for (const name of entries) {
    const pid = /\.(\d+)\.tmp$/.exec(name)?.[1];
    if (pid !== undefined && !alive(Number(pid))) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
  // Those of a SIGKILLed server, whose template browser was reaped at this start.
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    const pid = SOCKET_HOME_PID.exec(name)?.[1];
    if (pid !== undefined && !alive(Number(pid)) && isOwnDir(path.join(tmp, name))) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
  }
  const templates = entries
    .filter((name) => name.startsWith(TEMPLATE) && !name.endsWith('.tmp'))
    .map((name) => ({ name, at: fs.statSync(path.join(root, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of templates.slice(KEPT_TEMPLATES)) {
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
    fs.rmSync(path.join(root, SPARE + name.slice(TEMPLATE.length)), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
