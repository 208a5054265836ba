import type { Browser, BrowserContext } from 'playwright-core';
import { withDeadline } from './deadline.ts';

/** How long closing a browser's contexts may take before the browser itself is closed. */
const CONTEXT_CLOSE_MS = 5_000;

export interface EndingBrowser {
  browser?: Browser;
  /** Set for a persistent profile: closing it (not the browser) flushes cookies and storage. */
  persistent?: BrowserContext;
  /** Attach mode: closes what the session created and disconnects. */
  release?: () => Promise<void>;
}

/** Ends a session's browser as the upstream's close does; never throws. */
export async function endBrowser({ browser, persistent, release }: EndingBrowser): Promise<void> {
  // An attached browser is not ours: release what we created, never close it.
  if (release) return void (await release());
  // Contexts first: a context writes its HAR (contextOptions.recordHar) and
  // finishes its videos when it closes, not when its browser goes. Bounded: a
  // stuck renderer must not hold a close.
  if (browser && !persistent) await withDeadline(Promise.all(browser.contexts().map((context) => context.close().catch(() => {}))), CONTEXT_CLOSE_MS);
  await (persistent ?? browser)?.close().catch(() => {});
}
