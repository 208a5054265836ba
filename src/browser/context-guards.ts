import type { Browser, BrowserContext } from 'playwright-core';
import type { Logger } from '../log.ts';
import { BlockedPopups, watchBlockedPopups } from './blocked-popups.ts';
import { leaveOutChurningFrames } from './churning-frames.ts';
import { guardDownloads } from './download-guard.ts';
import { heldPointerNote, watchHeldPointer } from './humanize/held-pointer.ts';
import { enableHumanize } from './humanize/humanize.ts';
import { watchForHangCheck } from './hang-recovery.ts';
import { formatRaceStacksLazily } from './lazy-race-stack.ts';
import { endLoadWaitsAtDialogs } from './load-wait.ts';
import { guardPages } from './page-guard.ts';
import { PasskeyGuard } from './passkey-guard.ts';
import { pointerLockNote, watchPointerLocks } from './pointer-lock.ts';
import { endCallsAtRelatedDialogs } from './related-dialogs.ts';
import { cancelPrintPreviews, printNote, type PrintPreviewWatch } from './print-preview.ts';
import type { ScriptStops } from './script-stop.ts';
import { settleOutsidePages } from './settle-wait.ts';

export interface GuardLimits {
  humanize: boolean;
  maxDownloadBytes: number;
  maxPages: number;
  headed: boolean;
  /** Chromium's popup blocker runs: say when it refused a window. */
  popupBlocker: boolean;
}

/**
 * What keeps a session's pages from holding it (a download that never ends, a
 * popup flood, a window the popup blocker refused, a print dialog, a pointer lock, a passkey dialog, a hung
 * renderer, a frame in a refresh loop), and the notes each leaves for the
 * next tool result. One per session; each launch's context is guarded anew.
 */
export class ContextGuards {
  readonly #limits: GuardLimits;
  readonly #log: Logger;
  #notes: string[] = [];
  #printPreviews: PrintPreviewWatch | undefined;
  #tabsClosed = 0;
  #popupsBlocked = new BlockedPopups();
  #openersStopped = false;
  #openersEnded: string[] = [];
  #printsCancelled = 0;
  #pointerLocksReleased = 0;
  #pointersHeld = 0;
  /** URLs of the documents a frame was left out of a snapshot in (churning-frames.ts). */
  #framesLeftOut = new Set<string>();
  #passkeys: PasskeyGuard | undefined;

  constructor(limits: GuardLimits, log: Logger) {
    this.#limits = limits;
    this.#log = log;
  }

  /** A browser the user runs (attach mode): only our input, the pointer lock's release and the held pointer's note. */
  guardAttached(context: BrowserContext): void {
    enableHumanize(context, this.#limits.humanize);
    watchPointerLocks(context, () => this.#pointerLocksReleased++);
    watchHeldPointer(context, () => this.#pointersHeld++);
  }

  /** A browser this server launched, all guards; `stops` end a popup flood at its source (page-guard.ts). */
  guardLaunched(browser: Browser, context: BrowserContext, stops?: ScriptStops): void {
    settleOutsidePages();
    endLoadWaitsAtDialogs();
    endCallsAtRelatedDialogs();
    formatRaceStacksLazily();
    this.#printPreviews = this.#limits.headed ? cancelPrintPreviews(browser, () => this.#printsCancelled++, this.#log) : undefined;
    this.#passkeys = new PasskeyGuard();
    this.guardPagesOf(context, stops);
  }

  /** The page guards of one context: the launched one, and each the upstream opens beside it (browser_tabs isolatedContext). */
  guardPagesOf(context: BrowserContext, stops?: ScriptStops): void {
    const limits = this.#limits;
    this.guardAttached(context);
    guardDownloads(context, limits.maxDownloadBytes, (stopped) =>
      this.#notes.push(`Note: the download of ${stopped.url} was stopped at ${stopped.bytes} bytes: it grew past --max-download-bytes (${limits.maxDownloadBytes}).`),
    );
    guardPages(context, limits.maxPages, () => this.#tabsClosed++, stops && { stops, onStopped: () => (this.#openersStopped = true), onOpenerEnded: (url) => this.#openersEnded.push(url) });
    if (limits.popupBlocker) watchBlockedPopups(context, (popup) => this.#popupsBlocked.add(popup));
    watchForHangCheck(context);
    leaveOutChurningFrames(context, (url) => this.#framesLeftOut.add(url));
    this.#passkeys?.watch(context);
  }

  get passkeys(): PasskeyGuard | undefined {
    return this.#passkeys;
  }

  /** Lets the guards' work under way end first (at most 1 s): a cancelled print dialog. */
  async settled(): Promise<void> {
    await this.#printPreviews?.settled(1_000);
  }

  /** What the guards did since the last call (downloads cancelled, tabs closed); then forgotten. */
  takeNotes(): string[] {
    // One note for a burst of tabs, however many it tried to open.
    if (this.#tabsClosed) this.#notes.push(`Note: a page tried to open more tabs than --max-pages (${this.#limits.maxPages}); ${this.#tabsClosed} were closed as they opened${this.#openersStopped ? ', and the script opening them was stopped' : ''}.`);
    this.#tabsClosed = 0;
    this.#openersStopped = false;
    for (const url of this.#openersEnded.splice(0)) this.#notes.push(`Note: ${url} went on opening tabs after its script was stopped (a loop of window.open calls, which V8 does not stop), so its renderer was ended: that tab reads as crashed, and the tabs it had opened in the same renderer were closed. Navigate to load a page again.`);
    const blocked = this.#popupsBlocked.takeNote();
    if (blocked) this.#notes.push(blocked);
    if (this.#printsCancelled) this.#notes.push(printNote(this.#printsCancelled));
    this.#printsCancelled = 0;
    if (this.#pointerLocksReleased) this.#notes.push(pointerLockNote(this.#pointerLocksReleased));
    this.#pointerLocksReleased = 0;
    if (this.#pointersHeld) this.#notes.push(heldPointerNote(this.#pointersHeld));
    this.#pointersHeld = 0;
    for (const url of this.#framesLeftOut) this.#notes.push(`Note: a frame in ${url} replaced its document faster than the snapshot could read it (a refresh loop), so the snapshot leaves its content out.`);
    this.#framesLeftOut.clear();
    return this.#notes.splice(0);
  }
}
