import type { LaunchOptions } from 'playwright-core';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import type { BrowserBinary } from './binary.ts';
import type { LaunchExtras } from './launch-extras.ts';
import { mergeArgs, stealthProfile, type StealthProfile } from './stealth-profile.ts';

type ContextOptions = NonNullable<NonNullable<UpstreamConfig['browser']>['contextOptions']>;

export interface LaunchPlan {
  /** Everything but the executable, which the binary provides (after a download, maybe). */
  launch: Omit<LaunchOptions, 'executablePath'>;
  context: ContextOptions;
  binary: BrowserBinary;
  stealth: StealthProfile | null;
  consoleFallback: boolean;
  /** The session's proxy, GeoIP, profile and extensions, once its setup ran. */
  extras?: LaunchExtras;
}

// What the upstream adds on its own launch path (it does not when handed a
// context), so the bridge must add it: no navigator.webdriver, an explicit
// headless, Chromium only.
const AUTOMATION_CONTROLLED_OFF = '--disable-blink-features=AutomationControlled';
// Playwright defaults that give automation away on the stealth engine.
const STEALTH_IGNORED_DEFAULTS = ['--enable-automation', '--enable-unsafe-swiftshader'];

export function launchPlan(config: Config, upstream: UpstreamConfig, binary: BrowserBinary): LaunchPlan {
  const fromUpstream = upstream.browser?.launchOptions ?? {};
  const stealthEngine = config.browserEngine === 'stealth';
  const { locale, timezoneId, ...restContext } = upstream.browser?.contextOptions ?? {};
  const stealth = stealthProfile(config, { locale, timezoneId });
  const userArgs = [...(fromUpstream.args ?? [])];
  if (!userArgs.some((a) => a.startsWith('--disable-blink-features'))) userArgs.push(AUTOMATION_CONTROLLED_OFF);
  const ignoreDefaultArgs =
    fromUpstream.ignoreDefaultArgs === true ? true : [...new Set([...(fromUpstream.ignoreDefaultArgs || []), ...(stealthEngine ? STEALTH_IGNORED_DEFAULTS : [])])];
  return {
    launch: {
      ...fromUpstream,
      headless: config.headless,
      chromiumSandbox: !config.noSandbox,
      args: mergeArgs(stealth?.args ?? [], userArgs),
      ignoreDefaultArgs,
      // The bridge closes its browsers itself on signals; Playwright's own
      // handlers would race it and exit the process early.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    },
    // With the stealth profile, locale and timezone travel as flags instead.
    context: stealth ? restContext : { ...restContext, ...(locale ? { locale } : {}), ...(timezoneId ? { timezoneId } : {}) },
    binary,
    stealth,
    consoleFallback: stealthEngine && config.consoleFallback,
  };
}
