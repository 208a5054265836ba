import type { BrowserContext, Page } from 'playwright-core';
import { askClose, closeAskedFor } from './closing-pages.ts';
import { openerIdOf, targetIdOf, type ScriptStops } from './script-stop.ts';

/** How long the browser has to name a popup's opener. */
const LOOKUP_MS = 1000;
/**
 * How long a page's popups may go on coming once its script was told to stop
 * (the stop lands between two statements, ~70 ms measured; opens already
 * under way arrive after it). A loop of bare window.open calls keeps V8's stop
 * pending until the loop ends, and its renderer, waiting on the browser for
 * each window, reads as idle to the hang check: measured, 500 opens took 30 s
 * of timeouts before the check closed the page, and closing it does not end
 * the loop either (the renderer runs on, and its popups come with no opener).
 * Such an opener's renderer is ended instead.
 */
const STOP_GRACE_MS = 1000;
/** Popups past the grace that show the loop goes on (one or two may have been under way, on a busy machine). */
const LATE_POPUPS = 5;
/** How long after a renderer was ended the windows it had asked for may still come. */
const REMNANTS_MS = 10_000;

export interface FloodStop {
  stops: ScriptStops;
  onStopped(): void;
  /** An opener whose popups went on coming past the grace after its stop, its renderer ended (its URL). */
  onOpenerEnded(url: string): void;
}

/**
 * Closes every popup a page opens once the context holds `maxPages` tabs (a
 * page may call window.open in a loop: 500 tabs starve a 2-core machine and
 * every tool of the session with it). Only popups count as extra: a tab the
 * upstream or the hang recovery opens itself is never closed. `onClosed`
 * hears each, so the next tool result can say so. With `stop`, the script of
 * the page that opened it is stopped too: a loop of opens that never yields
 * would otherwise go on opening (and the session closing) tabs until its
 * renderer is closed, call after call; `onStopped` hears each stop. An opener
 * whose popups still come (LATE_POPUPS of them) STOP_GRACE_MS after its stop
 * has its renderer ended, and its popups are closed.
 */
export function guardPages(context: BrowserContext, maxPages: number, onClosed: (url: string) => void, stop?: FloodStop): void {
  // Pages being closed still appear in context.pages() (and in the upstream's
  // tab list) until their close event, and count until then: the hang check
  // may close a flooding page's popups while its loop still opens more.
  const open = () => context.pages().filter((page) => !page.isClosed()).length;
  // When an opener's renderer was last ended in this context.
  let lastEndAt = -Infinity;
  context.on('page', async (page) => {
    const count = open();
    const opener = await page.opener().catch(() => null);
    if (opener) addPopup(opener, page);
    // Asked for by a renderer this guard ended: the flood's last windows, which
    // never get a page to answer (no URL, and no opener once the renderer died).
    if (opener ? ended.has(opener) : page.url() === '' && performance.now() - lastEndAt < REMNANTS_MS) return void closeExcess(page);
    // Looked up once half the tabs are taken, while the browser still answers at once: a flood swamps it.
    if (stop && opener && count > maxPages / 2) void targetIdOf(context, opener, LOOKUP_MS);
    if (count <= maxPages) return;
    // A popup whose opener is gone (closed as stuck while its loop goes on) has no opener here; the browser still knows it had one.
    if (!opener && !(await openerIdOf(context, page, LOOKUP_MS))) return;
    closeExcess(page);
    if (!stop || !opener) return;
    const since = stoppedAt.get(opener);
    if (since === undefined || performance.now() - since < STOP_GRACE_MS) return void stopOpener(context, opener, stop);
    const late = (lateAfterStop.get(opener) ?? 0) + 1;
    lateAfterStop.set(opener, late);
    if (late >= LATE_POPUPS) void endOpener(context, opener, stop, closeExcess).then((done) => done && (lastEndAt = performance.now()));
  });

  function closeExcess(page: Page): void {
    onClosed(page.url());
    void askClose(page, 'excess');
  }
}

/** When each opener's script was first told to stop. */
const stoppedAt = new WeakMap<Page, number>();
/** Popups each opener opened past --max-pages after the grace. */
const lateAfterStop = new WeakMap<Page, number>();
/** Openers whose script is being stopped now: one stop at a time per page. */
const stopping = new WeakSet<Page>();
/** Openers whose renderer was ended. */
const ended = new WeakSet<Page>();
/** Each opener's popups still open. */
const popups = new WeakMap<Page, Set<Page>>();

function addPopup(opener: Page, popup: Page): void {
  let set = popups.get(opener);
  if (!set) popups.set(opener, (set = new Set()));
  set.add(popup);
  popup.once('close', () => set.delete(popup));
}

async function stopOpener(context: BrowserContext, opener: Page, stop: FloodStop): Promise<void> {
  if (opener.isClosed() || stopping.has(opener)) return;
  stopping.add(opener);
  try {
    const targetId = await targetIdOf(context, opener, LOOKUP_MS);
    if (!targetId || opener.isClosed()) return;
    stop.stops.stop(new Set([targetId]));
    if (!stoppedAt.has(opener)) stoppedAt.set(opener, performance.now());
    stop.onStopped();
  } finally {
    stopping.delete(opener);
  }
}

// The opener's renderer crashes, and with it every popup of the same site it
// opened. The opener stays, as a crashed tab the agent navigates on from; its
// popups are closed, those of other sites too (and any still to come): windows
// a dead renderer asked for never get a page to answer, and would stall any
// call that met one.
async function endOpener(context: BrowserContext, opener: Page, stop: FloodStop, closeExcess: (page: Page) => void): Promise<boolean> {
  if (opener.isClosed() || ended.has(opener) || closeAskedFor(opener)) return false;
  const targetId = await targetIdOf(context, opener, LOOKUP_MS);
  if (!targetId || opener.isClosed() || ended.has(opener)) return false;
  ended.add(opener);
  stop.stops.crash(new Set([targetId]));
  for (const popup of popups.get(opener) ?? []) if (!popup.isClosed() && !closeAskedFor(popup)) closeExcess(popup);
  stop.onOpenerEnded(opener.url());
  return true;
}
