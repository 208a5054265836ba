import type { BrowserContext, Page } from 'playwright-core';
import { askClose, closeAskedFor } from './closing-pages.ts';

/**
 * Closes every popup a page opens once the context holds `maxPages` tabs (a
 * page may call window.open in a loop: 500 tabs starve a 2-core machine and
 * every tool of the session with it). Only popups count as extra: a tab the
 * upstream or the hang recovery opens itself is never closed. `onClosed`
 * hears each, so the next tool result can say so.
 */
export function guardPages(context: BrowserContext, maxPages: number, onClosed: (url: string) => void): void {
  // Pages being closed still appear in context.pages() until their close event.
  const open = () => context.pages().filter((page) => !page.isClosed() && !closeAskedFor(page)).length;
  const onPopup = (popup: Page) => {
    if (open() <= maxPages) return;
    onClosed(popup.url());
    void askClose(popup, 'excess');
  };
  const watch = (page: Page) => page.on('popup', onPopup);
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
}
