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

/** How many of the tab's last two main-frame commits (documents, or moves within one) came in the last ms: 0, 1 or 2; 2 when not known. */
export function commitsWithin(page: Page, ms: number): number {
  const at = committedAt.get(page);
  return at === undefined ? 2 : at.filter((when) => performance.now() - when < ms).length;
}
