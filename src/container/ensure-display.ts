// The one hook the browser launch needs: before a headed launch, make sure a
// display exists. Kept free of imports so src/browser can depend on it cheaply;
// the launcher link (server-link.ts) registers itself as the provider.

type DisplayProvider = () => Promise<string>;

let provider: DisplayProvider | undefined;

/** Set by the launcher link: asks the container launcher for its on-demand display. */
export function setDisplayProvider(next: DisplayProvider | undefined): void {
  provider = next;
}

/**
 * Resolves once a headed browser can start: at once for headless launches or
 * when a display is already set; else asks the launcher (which starts Xvfb on
 * first use) and sets DISPLAY for this process, so every later browser
 * inherits it. Without a launcher, fails with what to change.
 */
export async function ensureDisplay(headless: boolean): Promise<void> {
  if (headless || process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return;
  if (provider) {
    process.env.DISPLAY = await provider();
    return;
  }
  // Playwright's own message for this case points at its test runner; ours says
  // what a server user can change.
  throw new Error(
    'This session asked for a headed browser (headless: false), but there is no display: DISPLAY is unset. ' +
      'Fix: set headless true (per session, or --headless true), or run the server under a display (e.g. xvfb-run -a, or the container image, or the `launcher` command, which start one on demand).',
  );
}
