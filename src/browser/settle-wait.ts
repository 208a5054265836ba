import type { Page } from 'playwright-core';
import { upstreamTabPrototype } from './upstream-tabs.ts';

// After each action the upstream waits for the page to settle (500 ms by
// default) by evaluating `setTimeout` inside the page's own world. A page sees
// that call (a hook on window.setTimeout: a 500 ms timer from a script of no
// URL after every click), and a page whose setTimeout never calls back holds
// the action until the call's deadline. The same wait runs here in the
// server; it ends early, as the in-page one does, when the page's document is
// replaced (a navigation destroys the evaluate's context; the upstream then
// waits for the load), when the page closes and when its renderer crashes.

interface TabLike {
  page: Page;
  waitForTimeout(ms: number): Promise<void>;
}

let patched = false;

function settle(page: Page, ms: number): Promise<void> {
  if (page.isClosed()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      page.off('domcontentloaded', done).off('close', done).off('crash', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    page.once('domcontentloaded', done).once('close', done).once('crash', done);
  });
}

/** The upstream's settle waits run in the server from now on (one patch per process). */
export function settleOutsidePages(): void {
  if (patched) return;
  patched = true;
  upstreamTabPrototype<TabLike>().waitForTimeout = function (this: TabLike, ms: number) {
    return settle(this.page, ms);
  };
}
