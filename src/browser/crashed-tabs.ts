import type { BrowserContext, Page } from 'playwright-core';
import { onEveryTab, onMainFrameCommit } from './every-tab.ts';

// A tab whose renderer crashed answers no DevTools command addressed to its
// renderer until a navigation gives it a new one: to a probe it reads exactly
// like a script that never yields. Stopping "its script" then waits for an
// answer that cannot come and names a page that was never stuck.

const crashed = new WeakSet<Page>();

function watch(page: Page): void {
  page.on('crash', () => crashed.add(page));
  onMainFrameCommit(page, () => crashed.delete(page));
}

/** Follows which of the context's tabs have a crashed renderer. */
export function watchCrashes(context: BrowserContext): void {
  onEveryTab(context, watch);
}

/** Whether the tab's renderer crashed and no document was committed since. */
export function hasCrashed(page: Page): boolean {
  return crashed.has(page);
}
