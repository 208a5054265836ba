import { compareVersions } from './build-store/platform.ts';

// The switches the vendor's own client passes to the stealth build, in one
// table: what, why, and from which build on. launch-options.ts applies it;
// stealth_bridge_info reports which a session got.

export interface SwitchContext {
  headed: boolean;
  /** The stealth build's five-part version (install receipt or pin); null when unknown or stock Chromium. */
  buildVersion: string | null;
  /** The switches the user gave (launch args, config file). */
  userArgs: readonly string[];
  /** The user set a viewport (flag, env, config file, device). */
  viewportSet: boolean;
}

export interface SwitchRule {
  switch: string;
  why: string;
  /** First build that has the behaviour; undefined = every build. */
  since?: string;
  applies(ctx: SwitchContext): boolean;
}

// Builds from here on size a headless window like a real one (the vendor's HEADLESS_NO_VIEWPORT_MIN_VERSION).
export const MAXIMIZED_MIN_VERSION = '148.0.7778.215.4';

const atLeast = (ctx: SwitchContext, min: string) => ctx.buildVersion !== null && compareVersions(ctx.buildVersion, min) <= 0;
const userHas = (ctx: SwitchContext, name: string) => ctx.userArgs.some((a) => a === name || a.startsWith(`${name}=`));

export const STEALTH_SWITCHES: SwitchRule[] = [
  {
    switch: '--ignore-gpu-blocklist',
    why: 'headed under Xvfb or in a container the GPU blocklist leaves no WebGL, a strong bot signal (vendor args.ts); the build reports its fingerprint GPU, not the software renderer',
    // A stock Chromium would then show WebGL on a software renderer by name
    // (llvmpipe, SwiftShader), which detectors flag (headless-detector) and an
    // unautomated one under the same display does not have: it keeps the
    // blocklist, as that one does.
    applies: (ctx) => ctx.headed && ctx.buildVersion !== null,
  },
  {
    switch: '--start-maximized',
    why: 'the window, not a fixed automation viewport, sizes the page (viewport: null), as the vendor runs newer builds',
    since: MAXIMIZED_MIN_VERSION,
    applies: (ctx) => !ctx.viewportSet && atLeast(ctx, MAXIMIZED_MIN_VERSION) && !userHas(ctx, '--window-size') && !userHas(ctx, '--start-maximized'),
  },
];

interface Size {
  width: number;
  height: number;
}

// The vendor's fixed headless viewport: a maximized window's on its 1920×1080 screen.
const VENDOR_VIEWPORT: Size = { width: 1920, height: 947 };

/** The vendor's viewport when the user set none: null (the window) or its fixed headless size on older builds. */
export function vendorViewport(ctx: SwitchContext): Size | null | undefined {
  if (ctx.viewportSet) return undefined;
  if (ctx.headed || atLeast(ctx, MAXIMIZED_MIN_VERSION)) return null;
  return { ...VENDOR_VIEWPORT };
}

// The fixed viewport is a maximized window's on a 1920×1080 screen. Playwright
// otherwise reports a screen the size of the viewport, and the window (the
// viewport plus the browser's own bars) taller than its screen, which no
// desktop shows. A stealth build reports the screen of its fingerprint: that
// is left to it.
const VENDOR_SCREEN: Size = { width: 1920, height: 1080 };
// A viewport the user set (`--viewport-size 1280x800`) gets the smallest common desktop screen
// that holds it with the bars around the vendor's viewport (133 px: the window's and a taskbar's).
const WINDOW_BARS = VENDOR_SCREEN.height - VENDOR_VIEWPORT.height;
const DESKTOP_SCREENS: [number, number][] = [[1366, 768], [1440, 900], [1536, 864], [1600, 900], [1680, 1050], [1920, 1080], [1920, 1200], [2560, 1440], [3840, 2160]];

interface UsersPage {
  /** The user set a screen (a device, the config file). */
  screenSet: boolean;
  /** The viewport the user set, if any (null: the window). */
  viewport?: Size | null;
  /** A mobile context (isMobile): a desktop's screen would not fit it. */
  mobile?: boolean;
}

/**
 * The screen that goes with the page's viewport on a stock Chromium, when the user set no screen:
 * the vendor's behind its fixed viewport, a desktop's behind a desktop viewport the user set (none
 * for a viewport larger than any, nor for a mobile one: Playwright's screen of the viewport's size then).
 */
export function vendorScreen(ctx: SwitchContext, page: UsersPage): Size | undefined {
  if (page.screenSet || ctx.buildVersion !== null) return undefined;
  if (!ctx.viewportSet) return vendorViewport(ctx) ? VENDOR_SCREEN : undefined;
  const usersViewport = page.viewport;
  if (!usersViewport || page.mobile) return undefined;
  const fits = DESKTOP_SCREENS.find(([width, height]) => width >= usersViewport.width && height >= usersViewport.height + WINDOW_BARS);
  return fits && { width: fits[0], height: fits[1] };
}

/** `--fingerprint-windows-font-metrics` needs MediaRouter among the enabled features (vendor args.ts). */
export function withFontMetricsFeature(args: string[]): string[] {
  if (!args.some((a) => a === '--fingerprint-windows-font-metrics' || a.startsWith('--fingerprint-windows-font-metrics='))) return args;
  const index = args.findIndex((a) => a.startsWith('--enable-features='));
  if (index === -1) return [...args, '--enable-features=MediaRouter'];
  const features = args[index]!.slice('--enable-features='.length).split(',').filter(Boolean);
  if (features.includes('MediaRouter')) return args;
  return args.map((a, i) => (i === index ? `--enable-features=${[...features, 'MediaRouter'].join(',')}` : a));
}

export function applicableSwitches(ctx: SwitchContext): SwitchRule[] {
  return STEALTH_SWITCHES.filter((rule) => rule.applies(ctx));
}
