import type { BrowserContext, Page } from 'playwright-core';
import { serverObject } from './utility-world.ts';
import { onEveryTab } from './every-tab.ts';

// With Chromium's popup blocker on (the stealth engine keeps it, as a user's
// Chrome has it), a window a page opens with no click or key behind it (from
// a timer, at load, a click's second window.open) is refused: a person sees
// the blocker's icon in the address bar, an agent sees nothing happen, where
// under the upstream the tab opened. Chromium reports every window a page asks
// for (Page.windowOpen, with whether input was behind it) on Playwright's own
// session of that page, whose Page domain Playwright keeps on; nothing is sent
// to the page for it.

export interface BlockedPopup {
  /** The page that asked. */
  from: string;
  /** The window's URL, as the page gave it. */
  url: string;
}

type WindowOpen = { url: string; userGesture: boolean };
type FrameSession = { _client?: { on(event: 'Page.windowOpen', listener: (params: WindowOpen) => void): void } };

/** Calls `onBlocked` for each window a page of the context, or a frame of it in a process of its own, asks for with no input behind it. */
export function watchBlockedPopups(context: BrowserContext, onBlocked: (popup: BlockedPopup) => void): void {
  const watch = (page: Page) => {
    // Chromium's page (CRPage) keeps a DevTools session per process its frames run in: its main frame's,
    // and one for each out-of-process frame, added as the frame attaches.
    const sessions = serverObject(page)?.delegate?._sessions as Map<string, FrameSession> | undefined;
    if (!sessions) return;
    const listen = (session: FrameSession) =>
      session._client?.on('Page.windowOpen', ({ url, userGesture }) => {
        if (!userGesture) onBlocked({ from: page.url(), url });
      });
    sessions.forEach(listen);
    const set = sessions.set;
    sessions.set = function (targetId, session) {
      listen(session);
      return set.call(this, targetId, session);
    };
  };
  onEveryTab(context, watch);
}

/** How many refused windows' URLs a note names, and how many pages; the rest are counted (a page may ask in a loop). */
const NAMED = 3;

/** The windows refused since the last note, per page that asked, bounded however many pages ask. */
export class BlockedPopups {
  #byPage = new Map<string, { count: number; urls: Set<string> }>();
  #otherPages = new Set<string>();
  #count = 0;

  add({ from, url }: BlockedPopup): void {
    this.#count++;
    let page = this.#byPage.get(from);
    if (!page && this.#byPage.size < NAMED) this.#byPage.set(from, (page = { count: 0, urls: new Set() }));
    if (!page) return void this.#otherPages.add(from);
    page.count++;
    if (page.urls.size <= NAMED) page.urls.add(url || 'about:blank');
  }

  /** The note for the windows refused since the last call, if any; then forgotten. */
  takeNote(): string | undefined {
    const count = this.#count;
    if (!count) return undefined;
    const pages = [...this.#byPage].map(([from, { count, urls }]) => {
      const named = [...urls].slice(0, NAMED).join(', ') + (count > NAMED && urls.size > NAMED ? ', …' : '');
      return `${from} tried to open ${count === 1 ? 'a window' : `${count} windows`} (${named})`;
    });
    if (this.#otherPages.size) pages.push(`${this.#otherPages.size} more page${this.#otherPages.size === 1 ? '' : 's'} tried too`);
    const first = [...[...this.#byPage.values()][0]!.urls][0];
    this.#byPage.clear();
    this.#otherPages.clear();
    this.#count = 0;
    const one = count === 1;
    return `Note: ${pages.join('; ')}; Chromium's popup blocker refused ${one ? 'it' : 'them'}, as a user's Chrome does: a page gets one window per click or key press, none without one. To open one, use browser_tabs with action "new" and its url (e.g. "${first}").`;
  }
}
