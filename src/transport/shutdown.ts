import { browsersExited } from '../browser/browser-spawn.ts';
import { flushBundleCodeCache } from '../bundle-code-cache.ts';
import type { Logger } from '../log.ts';

// Closing browsers normally takes well under a second; past this, exit anyway
// (Playwright's exit hook still kills the browser processes it launched).
const SHUTDOWN_DEADLINE_MS = 5_000;
/** How long closed browsers get to exit on their own (~0.1 s each, all at once). */
const BROWSER_EXIT_MS = 2_000;

/**
 * Runs `close` once on the first of SIGINT, SIGTERM, SIGHUP or `trigger()`,
 * then exits with `code`.
 */
export function onShutdown(close: (reason: string) => Promise<void>, log: Logger): (reason: string) => void {
  let started = false;
  const trigger = (reason: string) => {
    if (started) return;
    started = true;
    log.debug(`shutting down (${reason})`);
    const deadline = setTimeout(() => {
      log.warn(`shutdown took longer than ${SHUTDOWN_DEADLINE_MS} ms; exiting anyway`);
      process.exit(0);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    close(reason)
      .catch((error: unknown) => log.error('error while shutting down:', error))
      .then(() => browsersExited(BROWSER_EXIT_MS))
      .finally(() => {
        flushBundleCodeCache();
        process.exit(0);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => trigger(signal));
  return trigger;
}
