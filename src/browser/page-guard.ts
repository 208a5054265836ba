import type { BrowserContext, Page } from 'playwright-core';
import { askClose } from './closing-pages.ts';
import { openerIdOf, targetIdOf, type StopScripts } from './script-stop.ts';

/** How long the browser has to name a popup's opener. */
const LOOKUP_MS = 1000;

/**
 * Closes every popup a page opens once the context holds `maxPages` tabs (a
 * page may call window.open in a loop: 500 tabs starve a 2-core machine and
 * every tool of the session with it). Only popups count as extra: a tab the
 * upstream or the hang recovery opens itself is never closed. `onClosed`
 * hears each, so the next tool result can say so. With `stopScripts`, the
 * script of the page that opened it is stopped too: a loop of opens that
 * never yields would otherwise go on opening (and the session closing) tabs
 * until its renderer is closed, call after call; `onStopped` hears each stop.
 */
export function guardPages(context: BrowserContext, maxPages: number, onClosed: (url: string) => void, stop?: { stopScripts: StopScripts; onStopped(): void }): void {
  // Pages being closed still appear in context.pages() (and in the upstream's
  // tab list) until their close event, and count until then: the hang check
  // may close a flooding page's popups while its loop still opens more.
  const open = () => context.pages().filter((page) => !page.isClosed()).length;
  context.on('page', async (page) => {
    const count = open();
    const opener = await page.opener().catch(() => null);
    // Looked up once half the tabs are taken, while the browser still answers at once: a flood swamps it.
    if (stop && opener && count > maxPages / 2) void targetIdOf(context, opener, LOOKUP_MS);
    if (count <= maxPages) return;
    // A popup whose opener is gone (closed as stuck while its loop goes on) has no opener here; the browser still knows it had one.
    if (!opener && !(await openerIdOf(context, page, LOOKUP_MS))) return;
    onClosed(page.url());
    void askClose(page, 'excess');
    if (stop && opener) void stopOpener(context, opener, stop);
  });
}

/** Openers whose script is being stopped now: one stop at a time per page. */
const stopping = new WeakSet<Page>();

async function stopOpener(context: BrowserContext, opener: Page, stop: { stopScripts: StopScripts; onStopped(): void }): Promise<void> {
  if (opener.isClosed() || stopping.has(opener)) return;
  stopping.add(opener);
  try {
    const targetId = await targetIdOf(context, opener, LOOKUP_MS);
    if (!targetId || opener.isClosed()) return;
    stop.stopScripts(new Set([targetId]));
    stop.onStopped();
  } finally {
    stopping.delete(opener);
  }
}
