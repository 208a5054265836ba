import type { UserScripts } from '../user-scripts.ts';
import type { QuietRuntime } from './runtime-shim.ts';

// Code of the user's own (browser_run_code_unsafe) may listen to the page as
// the domain left on lets it: `page.waitForEvent('console')` around a click,
// `page.on('pageerror')`. With the domain off, what a page logs reaches
// Playwright at the shim's syncs only, and such code waited out its timeout
// (10 s in the probe) where the upstream's heard the message at once. While
// that code runs, every page syncs this often; the upstream's own reads
// still flush on their own (console-flush.ts).
const LISTENING_SYNC_MS = 100;

/** Syncs the shim's pages every LISTENING_SYNC_MS while the session runs code of the user's own. */
export function syncWhileUserCodeRuns(shim: QuietRuntime, scripts: UserScripts): void {
  let timer: ReturnType<typeof setInterval> | undefined;
  scripts.onCode((running) => {
    clearInterval(timer);
    timer = undefined;
    if (!running) return;
    timer = setInterval(() => shim.nudge(), LISTENING_SYNC_MS);
    timer.unref?.();
  });
}
