import type { BrowserContext, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';

const PROBE_MS = 1000;
// Chromium gives a stuck renderer's unload 500 ms, then closes its page anyway
// (measured: ~520 ms for an endless loop); a page that takes longer is kept
// busy rather than stuck, and is left closing in the background.
const CLOSE_MS = 2000;

const closeAsked = new WeakSet<Page>();

type PageState = 'answers' | 'stuck' | 'rootless';

// A renderer whose main thread never yields (an endless loop in the page)
// answers no CDP command; asking it to evaluate `0` tells such a page apart.
// A page that answers but whose script removed its root element makes every
// snapshot wait for one until the call times out; the DOM domain tells that
// without running anything in the page.
async function probe(context: BrowserContext, page: Page, probeMs: number): Promise<PageState> {
  const session = await withDeadline(context.newCDPSession(page).catch(() => undefined), probeMs);
  if (!session) return page.isClosed() ? 'answers' : 'stuck';
  try {
    const answer = await withDeadline(session.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(() => true, () => true), probeMs);
    if (answer !== true) return 'stuck';
    const document = await withDeadline(session.send('DOM.getDocument', { depth: 1 }).catch(() => undefined), probeMs);
    return document && !document.root.children?.some((node) => node.nodeType === 1) ? 'rootless' : 'answers';
  } finally {
    void session.detach().catch(() => {});
  }
}

/** The pages a check found unresponsive: those it closed, and those whose close the browser had not finished. */
export interface HungPages {
  closed: string[];
  closing: string[];
  /** Pages that answer but have no root element (left open: the page may add one back). */
  rootless: string[];
}

/**
 * Closes the pages whose renderer stopped answering (the browser kills the
 * renderer), so the session goes on instead of timing out call after call.
 * All pages are probed and closed at once, so the whole takes at most
 * probeMs * 2 + CLOSE_MS however many tabs a page opened. A page kept busy
 * rather than stuck (a flood of history entries) may take the browser longer
 * to close: its close goes on in the background and it is reported as closing.
 * A blank page is opened when no page would be left, so the upstream always
 * has a tab to go on with once the hung ones are gone.
 */
export async function closeUnresponsivePages(context: BrowserContext, probeMs = PROBE_MS): Promise<HungPages> {
  const pages = context.pages().filter((page) => !page.isClosed());
  // A page an earlier check already asked to close is neither probed nor waited for again.
  const already = pages.filter((page) => closeAsked.has(page));
  const states = await Promise.all(pages.map((page) => (closeAsked.has(page) ? 'answers' : probe(context, page, probeMs))));
  const hung = pages.filter((_, i) => states[i] === 'stuck');
  const rootless = pages.filter((_, i) => states[i] === 'rootless').map((page) => page.url());
  for (const page of hung) closeAsked.add(page);
  const urls = new Map([...already, ...hung].map((page) => [page, page.url()]));
  await withDeadline(Promise.all(hung.map((page) => page.close({ runBeforeUnload: false }).catch(() => {}))), CLOSE_MS);
  const closing = [...already, ...hung].filter((page) => !page.isClosed());
  if (hung.length && context.pages().every((page) => closeAsked.has(page))) {
    const blank = context.newPage().catch(() => undefined);
    // While a close is still under way the call has waited long enough: the tab comes when it comes.
    if (!closing.length) await withDeadline(blank, CLOSE_MS);
  }
  return { closed: hung.filter((page) => page.isClosed()).map((page) => urls.get(page)!), closing: closing.map((page) => urls.get(page)!), rootless };
}
