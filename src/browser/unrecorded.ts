// Playwright records each client call in a trace the user started
// (browser_start_tracing), with the page's DOM before and after it. Our own
// calls around the upstream's (the pointer's way, reads in the utility world,
// a DevTools session of ours) would fill that trace with actions the
// upstream's never has (a click: 41 pointer moves and 6 reads beside it) and
// slow the call by a snapshot each (1.8 s against 0.7 s). Calls made in
// Playwright's internal zone are neither recorded nor reported, as its own
// helper calls are not; the action the upstream asked for still is.

import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';

type Wrap = <T>(this: object, work: () => Promise<T>, options: { internal: boolean; title: string }) => Promise<T>;

/** Runs `work`, whose Playwright calls go unrecorded; `owner`, a Playwright object that makes calls (a locator does not). */
export function unrecorded<T>(owner: Page | Frame | BrowserContext, work: () => Promise<T>): Promise<T> {
  const wrap = (owner as { _wrapApiCall?: Wrap })._wrapApiCall;
  // An empty title: an error of `work` reads as it was thrown, with no name of Playwright's before it.
  return typeof wrap === 'function' ? wrap.call<object, [() => Promise<T>, { internal: boolean; title: string }], Promise<T>>(owner, work, { internal: true, title: '' }) : work();
}

/** A DevTools session of ours on the page or frame, opened unrecorded. */
export const ownSession = (context: BrowserContext, target: Page | Frame): Promise<CDPSession> => unrecorded(target, () => context.newCDPSession(target));
