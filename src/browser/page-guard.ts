import type { BrowserContext, Page } from 'playwright-core';

/**
 * Closes every page a context opens past `maxPages` (a page may call
 * window.open in a loop: 500 tabs starve a 2-core machine and every tool of
 * the session with it). `onClosed` hears each, so the next tool result can
 * say so.
 */
export function guardPages(context: BrowserContext, maxPages: number, onClosed: (url: string) => void): void {
  context.on('page', (page: Page) => {
    if (context.pages().length <= maxPages) return;
    onClosed(page.url());
    void page.close({ runBeforeUnload: false }).catch(() => {});
  });
}
