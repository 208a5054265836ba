import type { BrowserContext, Page } from 'playwright-core';
import { serverObject } from './utility-world.ts';

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
  context.pages().forEach(watch);
  context.on('page', watch);
}

/** How many refused windows' URLs a note names; the rest are counted (a page may ask in a loop). */
const NAMED = 3;

/** The windows refused since the last note, bounded however many a page asks for. */
export class BlockedPopups {
  #from = '';
  #urls = new Set<string>();
  #count = 0;

  add({ from, url }: BlockedPopup): void {
    if (!this.#count) this.#from = from;
    this.#count++;
    if (this.#urls.size <= NAMED) this.#urls.add(url || 'about:blank');
  }

  /** The note for the windows refused since the last call, if any; then forgotten. */
  takeNote(): string | undefined {
    const count = this.#count;
    if (!count) return undefined;
    const urls = [...this.#urls];
    this.#count = 0;
    this.#urls.clear();
    const named = urls.slice(0, NAMED).join(', ') + (count > NAMED && urls.length > NAMED ? ', …' : '');
    const one = count === 1;
    return `Note: ${this.#from} tried to open ${one ? 'a window' : `${count} windows`} (${named}); Chromium's popup blocker refused ${one ? 'it' : 'them'}, as a user's Chrome does: a page gets one window per click or key press, none without one. To open one, use browser_tabs with action "new" and its url (e.g. "${urls[0]}").`;
  }
}
