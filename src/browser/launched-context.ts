import type { Browser, BrowserContext } from 'playwright-core';
import type { Logger } from '../log.ts';
import { followConsoleFallback, setUpConsoleFallback } from './console-fallback.ts';
import type { ContextGuards } from './context-guards.ts';
import type { LaunchPlan } from './launch-options.ts';
import { flushConsoleBeforeReads } from './quiet-runtime/console-flush.ts';
import { keepConsoleInLoggingOrder } from './quiet-runtime/console-order.ts';
import type { QuietRuntime } from './quiet-runtime/runtime-shim.ts';
import type { ScriptStops } from './script-stop.ts';
import type { UserScripts } from './user-scripts.ts';
import { keepQueriesInUtilityWorld } from './utility-world.ts';
import { syncWhileUserCodeRuns } from './quiet-runtime/user-code-listeners.ts';

/**
 * Everything a freshly launched context gets before the upstream sees it:
 * the quiet runtime's shim (taken by the caller), queries kept out of the page's world, the console
 * recorder where the build needs one, the guards, and the browser's end with
 * the context's (the context is the upstream's whole world). Returns whether
 * the in-page console recorder runs; null when the plan does not ask.
 */
export async function setUpLaunchedContext(
  launched: { browser: Browser; context: BrowserContext; executablePath: string; quiet: QuietRuntime | undefined; quietConsole: boolean },
  session: { plan: LaunchPlan; guards: ContextGuards; userScripts: UserScripts; log: Logger },
): Promise<boolean | null> {
  const { browser, context, quiet } = launched;
  const { plan, log } = session;
  if (quiet) {
    quiet.userScripts = session.userScripts;
    syncWhileUserCodeRuns(quiet, session.userScripts);
  }
  readPagesQuietly(context, launched, session);
  if (quiet && launched.quietConsole) keepConsoleInLoggingOrder();
  const consoleFallbackActive = plan.consoleFallback ? await setUpConsoleFallback(browser, context, { executablePath: launched.executablePath, cacheDir: plan.binary.cacheDir, flush: quiet && (() => quiet.flush()), log }) : null;
  session.guards.guardLaunched(browser, context, scriptStopsOf(quiet));
  context.on('close', () => void browser.close().catch(() => {}));
  return consoleFallbackActive;
}

/**
 * A context the upstream opens beside the launched one (browser_tabs
 * isolatedContext) gets what the launched one got, its own pages' guards
 * included: the identity and the quiet runtime are the browser's already.
 * Closing it leaves the browser running.
 */
export async function setUpIsolatedContext(
  first: BrowserContext,
  context: BrowserContext,
  launched: { quiet: QuietRuntime | undefined; quietConsole: boolean },
  session: { plan: LaunchPlan; guards: ContextGuards; userScripts: UserScripts },
): Promise<void> {
  readPagesQuietly(context, launched, session);
  await followConsoleFallback(first, context);
  session.guards.guardPagesOf(context, scriptStopsOf(launched.quiet));
}

/** Each context's reads of its pages: Playwright's queries out of the page's world, the console flushed before it is read. */
function readPagesQuietly(context: BrowserContext, launched: { quiet: QuietRuntime | undefined; quietConsole: boolean }, session: { plan: LaunchPlan; userScripts: UserScripts }): void {
  if (session.plan.binary.engine === 'stealth') keepQueriesInUtilityWorld(context, session.userScripts);
  // Nothing to flush when the page's console is never read.
  if (launched.quiet && launched.quietConsole) flushConsoleBeforeReads(context, launched.quiet);
}

/** With the quiet runtime, its shim stops a page's script (or crashes its renderer) on Playwright's own DevTools session. */
export function scriptStopsOf(quiet: QuietRuntime | undefined): ScriptStops | undefined {
  return quiet && { stop: (targetIds) => quiet.renderers.stopScripts(targetIds), crash: (targetIds) => quiet.renderers.crash(targetIds), answers: (targetId, ms) => quiet.renderers.answers(targetId, ms), sinceAnswer: (targetId) => quiet.renderers.sinceAnswer(targetId) };
}
