import type { BrowserContext, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';

const PROBE_MS = 1000;
const CLOSE_MS = 5000;

// A renderer whose main thread never yields (an endless loop in the page)
// answers no CDP command; asking it to evaluate `0` tells such a page apart.
async function responsive(context: BrowserContext, page: Page): Promise<boolean> {
  const session = await withDeadline(context.newCDPSession(page).catch(() => undefined), PROBE_MS);
  if (!session) return page.isClosed();
  try {
    const answer = await withDeadline(session.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(() => true, () => true), PROBE_MS);
    return answer === true;
  } finally {
    void session.detach().catch(() => {});
  }
}

/**
 * Closes the pages whose renderer stopped answering (the browser kills the
 * renderer), so the session goes on instead of timing out call after call.
 * Returns the URLs closed. A blank page replaces the last one, so the
 * upstream always has a current tab.
 */
export async function closeUnresponsivePages(context: BrowserContext): Promise<string[]> {
  const closed: string[] = [];
  for (const page of context.pages()) {
    if (page.isClosed() || (await responsive(context, page))) continue;
    closed.push(page.url());
    await withDeadline(page.close({ runBeforeUnload: false }).catch(() => {}), CLOSE_MS);
  }
  if (closed.length && context.pages().length === 0) await withDeadline(context.newPage().catch(() => undefined), CLOSE_MS);
  return closed;
}
