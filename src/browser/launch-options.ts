import type { LaunchOptions } from 'playwright-core';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import type { BrowserBinary } from './binary.ts';
import type { LaunchExtras } from './launch-extras.ts';
import { withOurFeatures } from './chromium-features.ts';
import { mergeArgs, stealthProfile, type StealthProfile } from './stealth-profile.ts';
import { applicableSwitches, vendorScreen, vendorViewport, withFontMetricsFeature } from './stealth-switches.ts';
import { reducedUserAgent } from './user-agent.ts';
import { clientHintsFor, type UserAgentOverride } from './client-hints.ts';
import { attachTarget, type AttachTarget } from './attach.ts';

type ContextOptions = NonNullable<NonNullable<UpstreamConfig['browser']>['contextOptions']>;

export interface LaunchPlan {
  /** Everything but the executable, which the binary provides (after a download, maybe). */
  launch: Omit<LaunchOptions, 'executablePath'>;
  context: ContextOptions;
  binary: BrowserBinary;
  stealth: StealthProfile | null;
  consoleFallback: boolean;
  /** Pages' Runtime domain kept off by the pipe shim (quiet-runtime/). */
  quietRuntime: boolean;
  /** Our own user agent (no HeadlessChrome) with the client hints it empties, which the pipe shim restores. */
  userAgentOverride: UserAgentOverride | undefined;
  /** The page's console messages and errors are collected; false only with the quiet runtime (config/load.ts). */
  consoleCapture: boolean;
  humanize: boolean;
  maxDownloadBytes: number;
  maxPages: number;
  /** Chromium's popup blocker runs (a window opened with no input behind it is refused): the stealth engine's default. */
  popupBlocker: boolean;
  /** Attach mode: connect to this browser instead of launching one. */
  attach: AttachTarget | undefined;
  /** The vendor-table switches this plan added (stealth-switches.ts), for stealth_bridge_info. */
  switches: { switch: string; why: string; since: string | null }[];
  /** The session's proxy, GeoIP, profile and extensions, once its setup ran. */
  extras?: LaunchExtras;
}

// What the upstream adds on its own launch path (it does not when handed a
// context), so the bridge must add it: no navigator.webdriver, an explicit
// headless, Chromium only.
const AUTOMATION_CONTROLLED_OFF = '--disable-blink-features=AutomationControlled';
// Playwright defaults that give automation away on the stealth engine. Without
// IPC flooding protection a page's history.pushState loop is never throttled
// (a page can count that) and swamps the browser process itself, so no tab
// of the session can even be closed. Without the popup blocker a script opens
// windows with no input behind it (window.open returns null in a user's
// Chrome: a page can count that) and a click's handler opens as many as it
// asks for, a loop of them flooding the session; a user's Chrome gives a
// click one.
const POPUPS_UNBLOCKED = '--disable-popup-blocking';
const USER_AGENT_SWITCH = '--user-agent=';
const STEALTH_IGNORED_DEFAULTS = ['--enable-automation', '--enable-unsafe-swiftshader', '--disable-ipc-flooding-protection', POPUPS_UNBLOCKED];

export function launchPlan(config: Config, upstream: UpstreamConfig, binary: BrowserBinary, seed?: number): LaunchPlan {
  const fromUpstream = upstream.browser?.launchOptions ?? {};
  const stealthEngine = config.browserEngine === 'stealth';
  const { locale, timezoneId, ...restContext } = upstream.browser?.contextOptions ?? {};
  const userArgs = withFontMetricsFeature([...(fromUpstream.args ?? [])]);
  // A user agent given as a launch switch (launchOptions.args, as Puppeteer
  // users write it) is the user's as much as one in the context options:
  // Chromium takes the last --user-agent, so ours must not follow it.
  const switchedUserAgent = userArgs.findLast((a) => a.startsWith(USER_AGENT_SWITCH))?.slice(USER_AGENT_SWITCH.length);
  const usersAgent = restContext.userAgent ?? switchedUserAgent;
  const stealth = stealthProfile(config, { locale, timezoneId, userAgent: usersAgent }, seed);
  const headed = config.headless === false;
  const switchContext = { headed, buildVersion: binary.stealthBuildVersion, userArgs, viewportSet: restContext.viewport !== undefined };
  const switches = stealthEngine ? applicableSwitches(switchContext) : [];
  // One user agent everywhere: a launch switch reaches every worker and
  // request. A user agent the user set (--user-agent, --device, the config
  // file) is also kept as the context's, as the upstream does: Playwright's
  // override carries the matching client hints (mobile, platform: iOS for an
  // iPhone), which the switch alone leaves at this host's (Linux, not mobile).
  const stock = binary.stealthBuildVersion === null;
  const ownUserAgent = usersAgent === undefined && config.headless !== false && stock && binary.version ? reducedUserAgent(binary.version) : undefined;
  const userAgent = restContext.userAgent ?? ownUserAgent;
  if (userAgent) userArgs.push(`${USER_AGENT_SWITCH}${userAgent}`);
  // A switch alone empties the client hints (no full version list): the switched agent gets this Chromium's, as ours does.
  const hintedAgent = ownUserAgent ?? (restContext.userAgent === undefined && stock ? switchedUserAgent : undefined);
  // The upstream's own default on the playwright engine; the vendor's on the stealth engine.
  const viewport = restContext.viewport !== undefined ? restContext.viewport : stealthEngine ? vendorViewport(switchContext) : headed ? null : { width: 1280, height: 720 };
  const screen = stealthEngine ? vendorScreen(switchContext, { screenSet: restContext.screen !== undefined, viewport: restContext.viewport, mobile: restContext.isMobile }) : undefined;
  if (!userArgs.some((a) => a.startsWith('--disable-blink-features'))) userArgs.push(AUTOMATION_CONTROLLED_OFF);
  const quietRuntime = stealthEngine && config.quietRuntime;
  const ignoreDefaultArgs =
    fromUpstream.ignoreDefaultArgs === true
      ? true
      : // Playwright drops an ignored default from the user's own args too: one the user gives is theirs to keep.
        [...new Set([...(fromUpstream.ignoreDefaultArgs || []), ...(stealthEngine ? STEALTH_IGNORED_DEFAULTS.filter((arg) => !userArgs.includes(arg)) : [])])];
  const args = withOurFeatures(mergeArgs(stealth?.args ?? [], switches.map((s) => s.switch), userArgs));
  const popupBlocker = (ignoreDefaultArgs === true || ignoreDefaultArgs.includes(POPUPS_UNBLOCKED)) && !args.includes(POPUPS_UNBLOCKED);
  return {
    launch: {
      ...fromUpstream,
      headless: config.headless,
      chromiumSandbox: !config.noSandbox,
      args,
      ignoreDefaultArgs,
      // The bridge closes its browsers itself on signals; Playwright's own
      // handlers would race it and exit the process early.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    },
    // With the stealth profile, locale and timezone travel as flags instead.
    context: { ...restContext, viewport, ...(screen ? { screen } : {}), ...(stealth ? {} : { ...(locale ? { locale } : {}), ...(timezoneId ? { timezoneId } : {}) }) },
    switches: switches.map((s) => ({ switch: s.switch, why: s.why, since: s.since ?? null })),
    binary,
    stealth,
    consoleFallback: stealthEngine && config.consoleFallback && config.consoleCapture,
    quietRuntime,
    userAgentOverride: hintedAgent && binary.version && binary.versionOutput ? clientHintsFor(hintedAgent, binary.version, binary.versionOutput) : undefined,
    consoleCapture: !quietRuntime || config.consoleCapture,
    humanize: config.humanize,
    maxDownloadBytes: config.maxDownloadBytes,
    maxPages: config.maxPages,
    popupBlocker,
    attach: attachTarget(upstream, config.transport),
  };
}
