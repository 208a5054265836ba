import type { BrowserContext, Page, Request } from 'playwright-core';

// While a page's main frame navigates and the response has not arrived,
// Chromium holds every DevTools command for that page's renderer until the
// new document commits (measured: Runtime.evaluate, DOM.getDocument and
// Page.getFrameTree all unanswered for as long as the server is silent;
// Page.getNavigationHistory, answered by the browser process, comes back).
// A page whose server (or service worker) never answers then reads exactly
// like a renderer that never yields. The navigation requests still waiting
// for a response tell the two apart. Once a response arrived, what remains is
// the renderer's: an old page spinning in its unload handler is still stuck.

// Each page's waiting navigations, with when each was sent.
const waiting = new WeakMap<Page, Map<Request, number>>();
const pageOf = new WeakMap<Request, Page>();
// Called when a navigation of the page starts waiting (navigationWaits).
const onWaiting = new WeakMap<Page, Set<() => void>>();

function mainFrameNavigation(request: Request): Page | undefined {
  if (!request.isNavigationRequest()) return undefined;
  try {
    const frame = request.frame();
    return frame.parentFrame() ? undefined : frame.page();
  } catch {
    // A service worker's request has no frame.
    return undefined;
  }
}

/** Keeps, for each page of the context, its main-frame navigations still waiting for a response. */
export function watchNavigations(context: BrowserContext): void {
  context.on('request', (request) => {
    const page = mainFrameNavigation(request);
    if (!page) return;
    let requests = waiting.get(page);
    if (!requests) waiting.set(page, (requests = new Map()));
    requests.set(request, performance.now());
    pageOf.set(request, page);
    for (const waits of onWaiting.get(page) ?? []) waits();
  });
  const answered = (request: Request) => waiting.get(pageOf.get(request)!)?.delete(request);
  // Events the upstream's tabs already hear: listening here adds no traffic (requestfinished would).
  context.on('response', (response) => answered(response.request()));
  context.on('requestfailed', answered);
}

/** The URL a navigation of this page's main frame is still waiting for, if any. */
export function navigationWaitingFor(page: Page): string | undefined {
  const [request] = waiting.get(page)?.keys() ?? [];
  return request?.url();
}

/** Resolves once a navigation of this page's main frame waits for a response (at once when one does); `stop` forgets the watch. */
export function navigationWaits(page: Page): { waits: Promise<void>; stop(): void } {
  let listeners = onWaiting.get(page);
  if (!listeners) onWaiting.set(page, (listeners = new Set()));
  let resolve!: () => void;
  const waits = new Promise<void>((done) => (resolve = done));
  listeners.add(resolve);
  if (navigationWaitingFor(page)) resolve();
  return { waits, stop: () => listeners.delete(resolve) };
}

const POLL_MS = 50;

/**
 * Whether a navigation of this page is still waiting after giving a fresh one
 * up to `freshMs` to be answered (a refresh loop's next document is, in
 * milliseconds; a silent server's is not): true at once when the one waiting
 * was sent `freshMs` ago or more, and when navigations are still waiting at
 * the end of `freshMs` (a loop may have a fresh one waiting at every look).
 */
export async function navigationStillWaiting(page: Page, freshMs: number): Promise<boolean> {
  const until = performance.now() + freshMs;
  for (;;) {
    const [sent] = waiting.get(page)?.values() ?? [];
    if (sent === undefined) return false;
    if (performance.now() - sent >= freshMs || performance.now() >= until) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether a page of the context shows `url` within ms (a navigation Playwright gave up on may still commit). */
export async function pageAt(context: BrowserContext, url: string, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  for (;;) {
    if (context.pages().some((page) => page.url() === url)) return true;
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
