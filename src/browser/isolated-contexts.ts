import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeUnresponsivePages, type HangCheckOptions, type HungPages } from './hang-recovery.ts';
import type { ScriptStops } from './script-stop.ts';
import { NOTHING_STOPPED, stopStuckScripts, type StoppedScripts } from './stuck-scripts.ts';
import { currentTabOf } from './upstream-tabs.ts';

// browser_tabs `isolatedContext` (upstream 0.0.86): for a named one the
// upstream calls browser.newContext(its config's contextOptions) beside the
// session's context. Such a context must look and behave as the session's:
// opened with the session's own options (the identity's viewport and screen,
// a session's overrides), set up as the launched one, and its pages watched by
// the hang check, the stuck-script stops and the guards. Contexts never share
// a renderer, so each is checked on its own and the findings are joined.

type SetUp = (context: BrowserContext) => Promise<void>;

/** Makes the upstream's `browser.newContext()` open the session's kind of context; returns the contexts it opened, live. */
export function openContextsAsFirst(browser: Browser, options: Parameters<Browser['newContext']>[0], setUp: SetUp): ReadonlySet<BrowserContext> {
  const opened = new Set<BrowserContext>();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async () => {
    const context = await newContext(options);
    try {
      await setUp(context);
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
    opened.add(context);
    context.on('close', () => opened.delete(context));
    return context;
  };
  return opened;
}

/** The upstream's current tab, in whichever of the contexts it is. */
export function currentTabIn(contexts: readonly BrowserContext[]): Page | undefined {
  for (const context of contexts) {
    const page = currentTabOf(context);
    if (page) return page;
  }
  return undefined;
}

/** closeUnresponsivePages over every context at once; only the first one gets a blank tab when none would be left. */
export async function closeUnresponsivePagesIn(contexts: readonly BrowserContext[], options: HangCheckOptions): Promise<HungPages> {
  const found = await Promise.all(contexts.map((context, i) => closeUnresponsivePages(context, { ...options, reopen: i === 0 })));
  return joined(found);
}

/** stopStuckScripts over every context at once, the session's current tab the reference in each; one that fails stops nothing. */
export async function stopStuckScriptsIn(contexts: readonly BrowserContext[], stops: ScriptStops): Promise<StoppedScripts> {
  const current = currentTabIn(contexts);
  return joined(await Promise.all(contexts.map((context) => stopStuckScripts(context, stops, current).catch(() => NOTHING_STOPPED))));
}

function joined<T extends object>(found: T[]): T {
  const [first, ...rest] = found;
  const all = { ...first } as Record<string, unknown[]>;
  for (const more of rest) for (const [key, value] of Object.entries(more)) all[key] = [...(all[key] ?? []), ...(value as unknown[])];
  return all as T;
}
