// Chromium keeps one value per switch: a second `--enable-features=` replaces
// the first instead of adding to it. Playwright passes its own list before
// ours, so every feature we enable is merged with Playwright's into one switch.

/** What Playwright itself enables (chromiumSwitches.ts), kept when we add ours. */
const PLAYWRIGHT_ENABLED = process.env.PLAYWRIGHT_LEGACY_SCREENSHOT ? [] : ['CDPScreenshotNewSurface'];

/**
 * Features enabled on every browser we launch, with why. Each was measured
 * alone (PSS of 4 headless browsers, one page with a cross-origin frame each,
 * median of 3 runs, Debian Chromium) and kept only if a page cannot tell.
 */
export const OUR_FEATURES: { feature: string; why: string }[] = [
  {
    feature: 'NetworkServiceInProcess2',
    why: 'the network service runs in the browser process instead of a process of its own: about 16 MB less PSS per browser (241 → 225 MB, 0.93×); no web-visible difference',
  },
];

/** `args` with one `--enable-features` holding Playwright's, ours and the ones already there. */
export function withEnabledFeatures(args: string[]): string[] {
  const index = args.findIndex((a) => a.startsWith('--enable-features='));
  const present = index === -1 ? [] : args[index]!.slice('--enable-features='.length).split(',').filter(Boolean);
  const all = [...new Set([...PLAYWRIGHT_ENABLED, ...OUR_FEATURES.map((f) => f.feature), ...present])];
  const merged = `--enable-features=${all.join(',')}`;
  return index === -1 ? [...args, merged] : args.map((a, i) => (i === index ? merged : a));
}
