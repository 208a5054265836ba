import type { BrowserContext, Frame, Page } from 'playwright-core';

// A navigation away from a page whose script never yields (a loop started
// after its load, an endless `pagehide` or `unload` handler) waits on that
// page: when the next document goes to the same renderer, the renderer must
// finish the old one's script before it can commit the new one. The upstream's
// navigate then times out (60 s) and so does every later call; the hang check
// would close the tab only after 33 s. The page being left is the one current
// tab whose script the checks during a call may stop (stuck-scripts.ts): the
// user asked to leave it.

const leaving = new WeakMap<BrowserContext, Page>();

/**
 * Marks `page`, the context's current tab, as being left by a navigation call, until
 * its main frame commits a document or the returned function is called.
 */
export function leaveTab(context: BrowserContext, page: Page): () => void {
  const mainFrame = page.mainFrame();
  const end = () => {
    page.off('framenavigated', committed);
    if (leaving.get(context) === page) leaving.delete(context);
  };
  const committed = (frame: Frame) => {
    if (frame === mainFrame) end();
  };
  page.on('framenavigated', committed);
  leaving.set(context, page);
  return end;
}

/** The tab a navigation call is leaving and whose document is still there, if any. */
export function tabBeingLeft(context: BrowserContext): Page | undefined {
  const page = leaving.get(context);
  return page && !page.isClosed() ? page : undefined;
}
