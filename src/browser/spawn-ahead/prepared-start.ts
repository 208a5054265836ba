import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { Logger } from '../../log.ts';
import { provideBrowserProcess, type BrowserStart } from '../browser-spawn.ts';
import { quietRuntimeLaunch } from '../quiet-runtime/switch.ts';
import { nextProfile, takeSpare, templateKey } from './profile-template.ts';
import { throwawayProfileOf, toRecipe } from './spawn-recipe.ts';

// The launches Playwright makes itself (every HTTP session's browser, the
// warm pool's, a stdio session's browser after the first) start on a profile
// Chromium made before too, when one is ready (profile-template.ts): the
// spare is moved into the empty dir Playwright made for the launch, and a new
// one is copied in the background. Chromium then opens its profile's files
// instead of creating them (~100 ms of its start's CPU), which shortens a
// pool's refill and the start of a session that finds no warm browser.

export type LaunchProfile = 'prepared' | 'fresh';

// By the launch's quiet-runtime token: what a session can name its browser by.
const byToken = new Map<string, LaunchProfile>();
// A template is made for a launch seen twice: sessions with settings of their own each (a
// timezone, a locale) would otherwise have a browser started for a template nobody takes.
const seen = new Set<string>();

interface Context {
  marker: string | undefined;
  log: Logger;
}

/** Playwright's own launches start on prepared profiles from now on (an HTTP server; stdio has its start ahead). */
export function startOnPreparedProfiles(context: Context): void {
  provideBrowserProcess((command, args, options, start) => startPrepared(command, args, options, start, context));
}

/** Starts Playwright's launch, on the spare profile when there is one for it; readies the next. */
export function startPrepared(command: string, args: readonly string[], options: SpawnOptions, start: BrowserStart, context: Context): ChildProcess {
  const profileDir = throwawayProfileOf(args);
  // Another environment (a licence key for the keyed build) is not one the template's browser could start with.
  const made = profileDir && options.env === process.env ? toRecipe(command, args, { seed: seedOf(args), marker: context.marker }) : undefined;
  // A string says why the launch has no recipe (a proxy, a CDP port): no template for it.
  const recipe = typeof made === 'object' ? made : undefined;
  const key = recipe && templateKey(recipe);
  const profile: LaunchProfile = profileDir && key !== undefined && takeSpare(key, profileDir) ? 'prepared' : 'fresh';
  const child = start(command, args, options);
  // A persistent profile is the user's own: neither.
  if (profileDir) noteLaunchProfile(child, args, profile);
  if (!recipe || key === undefined) return child;
  const next = nextProfile(recipe, key, context);
  if (next.ready()) void next.spareSoon();
  else if (seen.has(key)) next.prepareSoon();
  else seen.add(key);
  return child;
}

/** Files how this launch's profile began, for its session to report. */
export function noteLaunchProfile(child: ChildProcess, args: readonly string[], profile: LaunchProfile): void {
  const token = quietRuntimeLaunch(args)?.token;
  if (token === undefined || child.pid === undefined) return;
  byToken.set(token, profile);
  child.once('exit', () => byToken.delete(token));
}

/** Whether the launch with this quiet-runtime token started on a prepared profile; undefined when it had no say. */
export function launchProfileOf(token: string): LaunchProfile | undefined {
  return byToken.get(token);
}

function seedOf(args: readonly string[]): number {
  return Number(args.find((arg) => arg.startsWith('--fingerprint='))?.slice('--fingerprint='.length));
}
