import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';

// Pages this session asked the browser to close. A close is not instant: a
// page whose renderer is busy stays in context.pages() (and in the upstream's
// tab list) for seconds, and every call on it fails with "Target page,
// context or browser has been closed" until it is gone.
type Reason = 'unresponsive' | 'excess';
const asked = new WeakMap<Page, Reason>();
// Per context, how many of those have closed: a call that raced such a close
// (its tab went while it ran) is told apart from a page that closed itself.
const gone = new WeakMap<BrowserContext, number>();

/** Asks the browser to close the page without its unload handlers; never throws. */
export function askClose(page: Page, reason: Reason): Promise<void> {
  if (!asked.has(page)) page.once('close', () => gone.set(page.context(), closedCount(page.context()) + 1));
  asked.set(page, reason);
  return page.close({ runBeforeUnload: false }).catch(() => {});
}

/** How many pages this session asked to close in the context have closed so far. */
export const closedCount = (context: BrowserContext): number => gone.get(context) ?? 0;

/** Why this session asked the page to close, if it did. */
export const closeAskedFor = (page: Page): Reason | undefined => asked.get(page);

/** Pages this session asked to close that the browser has not closed yet. */
export const stillClosing = (context: BrowserContext): Page[] => context.pages().filter((page) => asked.has(page) && !page.isClosed());

/** Resolves when every page is closed, or after ms: true when they all closed in time. */
export async function allClosed(pages: Page[], ms: number): Promise<boolean> {
  await withDeadline(Promise.all(pages.filter((page) => !page.isClosed()).map((page) => new Promise((resolve) => page.once('close', resolve)))), ms);
  return pages.every((page) => page.isClosed());
}

/** A mark to hand to `closingPagesGone`: how many tabs this session asked to close in the browser have gone so far. */
export const closedTabsIn = (browser: Browser | undefined): number => (browser?.contexts() ?? []).reduce((sum, context) => sum + closedCount(context), 0);

/**
 * Whether a call that met a closed tab can run again: a tab this session
 * asked to close went since the mark (the call raced its close), or some
 * were still closing and all went within ms.
 */
export async function closingPagesGone(contexts: BrowserContext[], closedNow: number, sinceMark: number, ms: number): Promise<boolean> {
  const closing = contexts.flatMap(stillClosing);
  if (!closing.length) return closedNow !== sinceMark;
  return allClosed(closing, ms);
}
