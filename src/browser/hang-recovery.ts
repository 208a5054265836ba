import type { BrowserContext, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';

const PROBE_MS = 1000;
const CLOSE_MS = 5000;

// A renderer whose main thread never yields (an endless loop in the page)
// answers no CDP command; asking it to evaluate `0` tells such a page apart.
async function responsive(context: BrowserContext, page: Page, probeMs: number): Promise<boolean> {
  const session = await withDeadline(context.newCDPSession(page).catch(() => undefined), probeMs);
  if (!session) return page.isClosed();
  try {
    const answer = await withDeadline(session.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(() => true, () => true), probeMs);
    return answer === true;
  } finally {
    void session.detach().catch(() => {});
  }
}

/**
 * Closes the pages whose renderer stopped answering (the browser kills the
 * renderer), so the session goes on instead of timing out call after call.
 * Returns the URLs closed. All pages are probed and closed at once, so the
 * whole takes about probeMs * 2 + CLOSE_MS however many tabs a page opened.
 * A blank page replaces the last one, so the upstream always has a current tab.
 */
export async function closeUnresponsivePages(context: BrowserContext, probeMs = PROBE_MS): Promise<string[]> {
  const pages = context.pages().filter((page) => !page.isClosed());
  const answers = await Promise.all(pages.map((page) => responsive(context, page, probeMs)));
  const hung = pages.filter((_, i) => !answers[i]);
  await withDeadline(Promise.all(hung.map((page) => page.close({ runBeforeUnload: false }).catch(() => {}))), CLOSE_MS);
  if (hung.length && context.pages().length === 0) await withDeadline(context.newPage().catch(() => undefined), CLOSE_MS);
  return hung.map((page) => page.url());
}
