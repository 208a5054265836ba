import { rewriteBrowserArgs } from './browser-spawn.ts';

// Chromium keeps one value per switch: a second `--enable-features=` or
// `--disable-features=` replaces the first instead of adding to it. Playwright
// passes its own lists before ours (and a user's launch args may hold more),
// so the lists are merged into one switch each, at the spawn of the browser
// itself, where Playwright's lists are known without copying them here.

const FEATURE_SWITCHES = ['--enable-features=', '--disable-features='] as const;

/**
 * Features switched on or off on every browser we launch, with why. Each was
 * measured alone (PSS of 4 headless browsers, one page with a cross-origin
 * frame each, median of 3 runs, Debian Chromium) and kept only if a page
 * cannot tell.
 */
export const OUR_FEATURES: { feature: string; enabled: boolean; why: string }[] = [
  {
    feature: 'NetworkServiceInProcess2',
    enabled: true,
    why: 'the network service runs in the browser process instead of a process of its own: about 16 MB less PSS per browser (241 → 225 MB, 0.93×); no web-visible difference',
  },
  {
    feature: 'WebUIOmniboxPopup',
    enabled: false,
    why: "the address bar's suggestion popup as a WebUI page, which Chromium 15x preloads at startup in a renderer of its own (chrome://omnibox-popup.top-chrome), headless too; without it the popup is drawn natively when shown: with the next one, about 42 MB less PSS per browser (219 → 177 MB, 0.81×) and one renderer fewer to start at launch; browser UI, which no page can see",
  },
  {
    feature: 'WebUIOmniboxAimPopup',
    enabled: false,
    why: 'the second preloaded omnibox WebUI page (its "AI mode" variant, same renderer); both must be off for that renderer not to start',
  },
];

/** `args` plus our features, every feature switch merged into one (Chromium keeps only the last). */
export function withOurFeatures(args: readonly string[]): string[] {
  const ours = FEATURE_SWITCHES.map((prefix) => {
    const features = OUR_FEATURES.filter((f) => f.enabled === (prefix === '--enable-features=')).map((f) => f.feature);
    return `${prefix}${features.join(',')}`;
  });
  return mergeFeatureSwitches([...args, ...ours]);
}

/** One `--enable-features` and one `--disable-features` holding every feature named in any of them, in order. */
export function mergeFeatureSwitches(args: readonly string[]): string[] {
  let out = [...args];
  for (const prefix of FEATURE_SWITCHES) {
    const indices = out.flatMap((a, i) => (a.startsWith(prefix) ? [i] : []));
    if (indices.length === 0) continue;
    const features = [...new Set(indices.flatMap((i) => out[i]!.slice(prefix.length).split(',')).filter(Boolean))];
    const first = indices[0]!;
    out = out.flatMap((a, i) => (i === first ? [`${prefix}${features.join(',')}`] : indices.includes(i) ? [] : [a]));
  }
  return out;
}

let installed = false;

/**
 * Merges the feature switches of every browser this process starts
 * (browser-spawn.ts: after spawn-ahead compared Playwright's own command line
 * with its recipe, so both paths start the same merged one).
 */
export function mergeFeatureSwitchesAtSpawn(): void {
  if (installed) return;
  installed = true;
  rewriteBrowserArgs(mergeFeatureSwitches);
}
