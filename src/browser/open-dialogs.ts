import type { BrowserContext, Dialog, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import { upstreamTabOf } from './upstream-tabs.ts';

// An alert, confirm or prompt holds its page's renderer until it is answered,
// and with it every page that shares that renderer: a popup's alert on load
// holds the tab that opened it. The upstream races a call against the modal
// states of its own tab only, so a click that opened such a popup waits until
// its deadline, and to a probe both pages read as a script that never yields.
// They are not stuck: answering the dialog frees them. The upstream answers
// only its current tab's dialog, and every tool that lists tabs reads their
// titles from the held pages; so the dialog's tab is made current for it.

const open = new WeakMap<Page, Dialog>();

/** Keeps, for each page of the context, the JavaScript dialog it shows, until it closes. */
export function watchDialogs(context: BrowserContext): void {
  context.on('dialog', (dialog) => {
    const page = dialog.page();
    if (!page) return;
    // Playwright answers a dialog nobody listens to by itself; a context listener
    // counts as one, so that default is kept here for pages no one else hears.
    if ((page as unknown as { listenerCount(event: string): number }).listenerCount('dialog') === 0) return void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => {});
    open.set(page, dialog);
  });
  context.on('dialogclosed', (dialog) => {
    const page = dialog.page();
    if (page && open.get(page) === dialog) open.delete(page);
  });
}

/** The dialog this page shows, if one is open. */
export function openDialogOf(page: Page): Dialog | undefined {
  return page.isClosed() ? undefined : open.get(page);
}

const SELECT_MS = 2000;

/** Makes the upstream's tab of this page its current tab; whether it is now. */
export async function makeCurrentTab(page: Page): Promise<boolean> {
  const tab = upstreamTabOf(page);
  if (!tab) return false;
  const index = tab.context.tabs().indexOf(tab);
  // Its page comes to front in the browser; the upstream reads nothing from the held page for this.
  if (index >= 0 && tab.context.currentTab() !== tab) await withDeadline(tab.context.selectTab(index).catch(() => undefined), SELECT_MS);
  return tab.context.currentTab() === tab;
}
