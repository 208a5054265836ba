import type { BrowserContext, Page } from 'playwright-core';
import { onEveryTab, onMainFrameCommit } from './every-tab.ts';

// When each tab's main frame last committed a document (or moved within one):
// a page that replaces its own document over and over (a refresh loop) does so
// in plain sight of Playwright's frame events, so a page with none for a while
// needs no watch for a replacement.

// The last two commits of each tab, latest first.
const committedAt = new WeakMap<Page, number[]>();

function watch(page: Page): void {
  committedAt.set(page, [performance.now()]);
  onMainFrameCommit(page, () => committedAt.set(page, [performance.now(), ...(committedAt.get(page) ?? []).slice(0, 1)]));
}

/** Follows when each of the context's tabs last committed a document in its main frame. */
export function watchCommits(context: BrowserContext): void {
  onEveryTab(context, watch);
}

/** Whether the tab's main frame committed a document (or navigated within one) in the last ms; true when not known. */
export function committedWithin(page: Page, ms: number): boolean {
  const at = committedAt.get(page)?.[0];
  return at === undefined || performance.now() - at < ms;
}

/** Whether the tab's main frame committed twice in the last ms (a loop, not one navigation); true when not known. */
export function committedTwiceWithin(page: Page, ms: number): boolean {
  const at = committedAt.get(page);
  return at === undefined || (at.length > 1 && performance.now() - at[1]! < ms);
}
