import type { BrowserContext, Page } from 'playwright-core';
import { untilClosed, withDeadline } from './deadline.ts';

// A browser started ahead (stdio prelaunch, the HTTP warm pool) also opens
// its first page ahead: a renderer and Playwright's page setup take ~200 ms
// of the first navigate. The upstream must not see that page before it asks
// for one: a fresh upstream session has no tab, and `browser_tabs new`,
// `close`, `select` or a snapshot as a first call read differently with one.
// So the page is left out of `pages()` until the upstream's first
// `newPage()`, which gets it, announced to the listeners that came since as
// a page the context just opened.

type PageListener = (page: Page) => void;

const PAGE_AHEAD_DEADLINE_MS = 10_000;
// Playwright's client objects are its own EventEmitter, which has listeners(); the public type leaves it out.
const pageListeners = (context: BrowserContext) => (context as unknown as { listeners(event: 'page'): PageListener[] }).listeners('page');

/**
 * Opens the context's first page; resolves when it is open (or could not be:
 * then nothing is hidden). Call before anyone else holds the context.
 */
export function openPageAhead(context: BrowserContext): Promise<void> {
  if (context.pages().length > 0) return Promise.resolve();
  const pages = context.pages.bind(context);
  const newPage = context.newPage.bind(context);
  const earlyListeners = new Set(pageListeners(context));
  let hidden: Page | undefined;
  const opening = newPage().then((page) => (hidden = page));
  // Nothing waits on a browser without a deadline: a page that has not opened
  // by then is the upstream's to open; one that opens later is closed unseen.
  // A context closed meanwhile (the session ended) ends the wait too.
  const bounded = withDeadline(untilClosed(opening, context), PAGE_AHEAD_DEADLINE_MS).catch(() => undefined);
  void bounded.then((page) => (page ? undefined : opening.then((late) => late.close()))).catch(() => {});
  const restore = () => {
    hidden = undefined;
    context.pages = pages;
    context.newPage = newPage;
  };
  context.pages = () => pages().filter((page) => page !== hidden);
  context.newPage = async () => {
    // Only the first call gets the page opened ahead; the context is itself again from here on.
    restore();
    const page = await bounded;
    if (!page || page.isClosed()) return newPage();
    for (const listener of pageListeners(context)) if (!earlyListeners.has(listener)) listener.call(context, page);
    return page;
  };
  return bounded.then((page) => {
    if (!page) restore();
  });
}
