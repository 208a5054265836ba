import type { BrowserContext, Frame, Page } from 'playwright-core';

// Guards that follow tabs must see the ones already open when they start (a
// persistent profile restores some) as well as every later one.

/** Calls watch for each tab of the context, open now or opened later. */
export function onEveryTab(context: BrowserContext, watch: (page: Page) => void): void {
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
}

/** Calls commit each time the tab's main frame commits a document (or navigates within one). */
export function onMainFrameCommit(page: Page, commit: () => void): void {
  page.on('framenavigated', (frame: Frame) => {
    if (frame === page.mainFrame()) commit();
  });
}
