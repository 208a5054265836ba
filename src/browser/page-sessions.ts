import type { CDPSession, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import { ownSession } from './unrecorded.ts';

/**
 * A DevTools session of ours per page, for one concern (each its own, so one
 * concern's enabled domains never reach another's): opened on first use and
 * kept with the page. An opening that fails or outlasts `openMs` is
 * forgotten, so the next use asks again (a page mid-crash may answer later);
 * one that comes after its deadline is detached.
 */
export function pageSessions(openMs: number): (page: Page) => Promise<CDPSession | undefined> {
  const sessions = new WeakMap<Page, Promise<CDPSession | undefined>>();
  return (page) => {
    let session = sessions.get(page);
    if (!session) {
      const opening = ownSession(page.context(), page).catch(() => undefined);
      session = withDeadline(opening, openMs);
      sessions.set(page, session);
      void session.then((opened) => {
        if (opened) return;
        sessions.delete(page);
        void opening.then((late) => late?.detach().catch(() => {}));
      });
    }
    return session;
  };
}
