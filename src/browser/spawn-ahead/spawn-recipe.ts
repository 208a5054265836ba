import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomicSync } from '../../fs/write-atomic.ts';
import { QUIET_RUNTIME_SWITCH } from '../quiet-runtime/switch.ts';

// The command line Playwright started Chromium with on the last start that had
// the same inputs (argv, environment, working directory, version), with its
// per-run values (profile dir, fingerprint seed, instance marker) as holes.
// A wrong or stale recipe costs one wasted spawn: the adoption compares it with
// what Playwright really asks for, switch by switch.

const PROFILE = '{{profile}}';
const SEED = '{{seed}}';
const MARKER = '{{marker}}';

/** The prefix of Playwright's own temporary profile dirs (browserType.ts _prepareToLaunch). */
export const PROFILE_PREFIX = 'playwright_chromiumdev_profile-';
const PROFILE_ARG = '--user-data-dir=';

/** A launch's profile dir if it is a throwaway one: directly in TMPDIR, with Playwright's prefix. */
export function throwawayProfileOf(args: readonly unknown[]): string | undefined {
  const arg = args.find((a): a is string => typeof a === 'string' && a.startsWith(PROFILE_ARG));
  const dir = arg?.slice(PROFILE_ARG.length);
  if (!dir || !path.isAbsolute(dir)) return undefined;
  return path.basename(dir).startsWith(PROFILE_PREFIX) && path.dirname(dir) === path.resolve(os.tmpdir()) ? dir : undefined;
}

const RecipeSchema = v.object({
  version: v.literal(1),
  command: v.pipe(v.string(), v.minLength(1)),
  args: v.pipe(v.array(v.string()), v.maxLength(500)),
});
export type SpawnRecipe = v.InferOutput<typeof RecipeSchema>;

/** What one run fills the holes with. */
export interface RunValues {
  profileDir: string;
  seed: number;
  marker: string | undefined;
}

/** Everything that decides the launch command line. The environment is hashed, never stored. */
export function recipeKey(inputs: { argv: readonly string[]; env: NodeJS.ProcessEnv; cwd: string; version: string; execPath: string }): string {
  const env = Object.entries(inputs.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return crypto.createHash('sha256').update(JSON.stringify([inputs.argv, env, inputs.cwd, inputs.version, inputs.execPath])).digest('hex').slice(0, 32);
}

/** In the private runtime dir (a recipe names a program to run), never in the cache, which may be read-only. */
export function recipeFile(runtimeDir: string, key: string): string {
  return path.join(runtimeDir, 'launch-recipes', `${key}.json`);
}

/**
 * The recipe of a launch, or why it cannot have one: only Playwright's own
 * throwaway profile can be swapped for ours, and a proxy switch may carry
 * credentials, which never go to disk.
 */
export function toRecipe(command: string, args: readonly string[], run: Omit<RunValues, 'profileDir'>): SpawnRecipe | string {
  const profiles = args.filter((a) => a.startsWith(PROFILE_ARG));
  if (profiles.length !== 1) return 'no single --user-data-dir';
  const dir = profiles[0]!.slice(PROFILE_ARG.length);
  if (path.dirname(dir) !== os.tmpdir() || !path.basename(dir).startsWith(PROFILE_PREFIX)) return 'a persistent profile';
  if (args.some((a) => a.startsWith('--proxy-server'))) return 'a proxy';
  // A session's CDP port is leased per start: the recipe would never match.
  if (args.some((a) => a.startsWith('--remote-debugging-port'))) return 'a CDP port';
  const seedArg = `--fingerprint=${run.seed}`;
  return {
    version: 1,
    command,
    args: args.map((a) => (a.startsWith(PROFILE_ARG) ? PROFILE_ARG + PROFILE : a === seedArg ? `--fingerprint=${SEED}` : run.marker !== undefined && a === run.marker ? MARKER : a)),
  };
}

/** The command line of this run; undefined when the recipe needs a marker this run has none of. */
export function fillRecipe(recipe: SpawnRecipe, run: RunValues): string[] | undefined {
  if (recipe.args.includes(MARKER) && run.marker === undefined) return undefined;
  return recipe.args.map((a) => (a === PROFILE_ARG + PROFILE ? PROFILE_ARG + run.profileDir : a === `--fingerprint=${SEED}` ? `--fingerprint=${run.seed}` : a === MARKER ? run.marker! : a));
}

/** The same launch, but for the profile dir (each side made its own) and the quiet-runtime token (one per launch). */
export function sameLaunch(a: readonly string[], b: readonly string[]): boolean {
  const own = (x: string, y: string, prefix: string) => x.startsWith(prefix) && y.startsWith(prefix);
  return a.length === b.length && a.every((arg, i) => arg === b[i] || own(arg, b[i]!, PROFILE_ARG) || own(arg, b[i]!, `${QUIET_RUNTIME_SWITCH}=`));
}

/** The stored recipe; a missing, unreadable or malformed file is no recipe (a malformed one is removed). */
export function readRecipe(file: string): SpawnRecipe | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return v.parse(RecipeSchema, JSON.parse(text));
  } catch {
    fs.rmSync(file, { force: true });
    return undefined;
  }
}

/** Written whole or not at all, readable by this user only. */
export function writeRecipe(file: string, recipe: SpawnRecipe): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, JSON.stringify(recipe), 0o600);
}
