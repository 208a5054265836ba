import { NO_HUNG_PAGES, type HungPages } from '../browser/hang-recovery.ts';
import type { SessionBrowser } from '../browser/session-browser.ts';
import type { Logger } from '../log.ts';
import { named } from './result-notes.ts';

// After a call timed out or was cancelled, the page gets 3 s to answer before
// it is taken as stuck: a page of long tasks (2.5 s each, 20 ms apart) read
// as stuck to a 1 s probe after a click on it timed out, 2 times in 4, and was
// closed where the upstream keeps it. A page that never yields costs 2 s more.
const AFTER_CALL_PROBE_MS = 3000;
// A call still under way has time left (checked 33 s in, before an SDK
// client's 60 s): a renderer busy on a huge document answered nothing for
// 4-7.5 s at a time while parsing 50 MB, and 6.5-11.7 s while Playwright
// built its snapshot (2 cores, under load), where a 1 s probe closed it.
const DURING_CALL_PROBE_MS = 10_000;

/**
 * Finds and closes pages whose script never yields, which would time out
 * every later call of the session (the upstream leaves such a session stuck).
 * Checked after a call timed out, and after a client cancelled a call: the
 * cancelled call gets no answer, so the next call waits for the check and
 * carries its note (as it does a timed-out call's, for a page confirmed later).
 */
export class HangWatch {
  #browser: SessionBrowser;
  #log: Logger;
  #sessionId: string;
  #background: Promise<HungPages> | undefined;

  constructor(browser: SessionBrowser, log: Logger, sessionId: string) {
    this.#browser = browser;
    this.#log = log;
    this.#sessionId = sessionId;
  }

  /**
   * The note for a call that timed out, if the check found pages to close or
   * to name. A page busy when asked that ran Playwright's script a moment ago
   * is not waited for (a page of 2.5 s tasks answers only once the task under
   * way ends: up to 2.5 s more than the upstream's answer); the check goes on
   * in the background as after a cancel, and its note goes to the next call.
   */
  async afterTimeout(): Promise<string | undefined> {
    const found = await this.#check(AFTER_CALL_PROBE_MS, { trustRecent: true });
    if (found.unconfirmed.length) this.checkInBackground();
    return this.#noteFor(found);
  }

  /**
   * The check while a call is still under way: its note only when it closed
   * pages (which ends the call). What it finds and leaves open may change
   * before the call ends; the check after a timeout says that.
   */
  async duringCall(callEnded: AbortSignal): Promise<string | undefined> {
    const found = await this.#check(DURING_CALL_PROBE_MS, { cancelled: callEnded });
    return found.closed.length || found.closing.length ? this.#noteFor({ ...NO_HUNG_PAGES, closed: found.closed, closing: found.closing, loading: found.loading }) : undefined;
  }

  /** Starts the check in the background (after a cancel, or to confirm a busy page); `pendingNote` hands its note to the next call. */
  checkInBackground(): void {
    if (!this.#browser.running) return;
    this.#background ??= this.#check(AFTER_CALL_PROBE_MS);
  }

  /**
   * Waits for a check started in the background (bounded: two probes and a
   * close), once. Its note is written when the next call ends, from what is
   * still so then: the navigation it waited for may have been answered, the
   * dialog it found answered by that very call (browser_handle_dialog).
   */
  async pendingNote(): Promise<() => string | undefined> {
    const found = await this.#background;
    this.#background = undefined;
    return () => (found ? this.#noteFor(found) : undefined);
  }

  /** One check of the session's pages (a failed one finds nothing); the pages it closed are logged as it ends. */
  async #check(probeMs: number, options?: Parameters<SessionBrowser['closeHungPages']>[1]): Promise<HungPages> {
    const found = await this.#browser.closeHungPages(probeMs, options).catch(() => NO_HUNG_PAGES);
    const all = [...found.closed, ...found.closing];
    if (all.length) this.#log.warn(`session ${this.#sessionId}: ${all.length} unresponsive page(s), ${found.closed.length} closed, ${found.closing.length} still closing: ${listed(all)}`);
    return found;
  }

  /** What a check found, as a note; a waiting navigation or an open dialog only while it still is (a note may be written a call later). */
  #noteFor(found: HungPages): string | undefined {
    const { closed, closing, loading, rootless, reloading, waiting, starved } = found;
    const navigating = found.navigating.filter((page) => page.now());
    const dialogs = found.dialogs.filter((dialog) => dialog.now());
    const notes = [];
    // The upstream's snapshot waits for a root element; said here, since its timeout alone does not tell why.
    if (rootless.length) notes.push(`Note: the page${named(rootless)} has no root element (a script removed it), so no snapshot of it can be taken and calls that include one time out. Navigate elsewhere to continue.`);
    if (reloading.length) notes.push(`Note: the page${named(reloading)} keeps replacing its own document (a refresh or redirect loop in the page), so no snapshot of it can settle and calls that include one time out. Navigate elsewhere to continue.`);
    // The browser holds every command for such a page: a snapshot of it waits as long as its server does.
    for (const { page, waitingFor } of navigating.slice(0, 5))
      notes.push(`Note: the page ${page} is navigating to ${waitingFor}, which has not answered yet (its server, or a service worker of the site); until it does, the browser answers nothing about this page. It was left open: navigate elsewhere to continue.`);
    if (waiting.length) notes.push(`Note: the page${named(waiting)} did not answer, but no script of ${waiting.length > 1 ? 'theirs' : 'its'} was running: the browser is still busy for ${waiting.length > 1 ? 'them' : 'it'} (a screenshot of a very large page, for one). ${waiting.length > 1 ? 'They were' : 'It was'} left open: try again in a moment, or navigate elsewhere.`);
    if (starved.length) notes.push(`Note: the page${named(starved)} did not answer while this machine's CPUs were busy with other work (${starved.length > 1 ? 'their renderers' : 'its renderer'} waited for a CPU most of the time), so ${starved.length > 1 ? 'they were' : 'it was'} left open: try again in a moment.`);
    for (const { page, type, message, current } of dialogs.slice(0, 5))
      notes.push(
        `Note: the page ${page} shows ${/^[aeiou]/.test(type) ? 'an' : 'a'} "${type}" dialog with message "${message.slice(0, 200)}". Until it is answered, that tab and the tabs sharing its renderer (the page that opened it, or that it opened) run no script, so calls on them time out; none was closed. ${current ? 'It is now the current tab: answer it with browser_handle_dialog, then select the tab you want with browser_tabs.' : 'Select it with browser_tabs, then answer it with browser_handle_dialog.'}`,
      );
    const closedNote = (urls: string[], why: (many: boolean) => string) => {
      if (urls.length) notes.push(`Note: the page${named(urls)} stopped responding ${why(urls.length > 1)}; ${urls.length > 1 ? 'they were' : 'it was'} closed so this session can go on. Navigate to continue.`);
    };
    closedNote(closed.filter((url) => !loading.includes(url)), () => '(a script that never yields)');
    // A renderer silent while its document loads may be parsing a huge one: the note does not guess which.
    closedNote(closed.filter((url) => loading.includes(url)), (many) => `while ${many ? 'their documents were' : 'its document was'} still loading (a document too large to parse in time, or a script in it that never yields)`);
    // Said as it is: a page kept busy (not stuck) can take the browser longer to close than the check waits.
    if (closing.length) notes.push(`Note: the page${named(closing)} stopped responding (its scripts keep it busy); the browser is still closing ${closing.length > 1 ? 'them' : 'it'}. Navigate to continue; if the next call times out too, end the session and start a new one.`);
    return notes.length ? notes.join('\n') : undefined;
  }
}

const listed = (urls: string[]) => `${urls.slice(0, 5).join(', ')}${urls.length > 5 ? ', …' : ''}`;
