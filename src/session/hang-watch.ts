import type { SessionBrowser } from '../browser/session-browser.ts';
import type { Logger } from '../log.ts';

// After a client cancels, nothing is waiting on the page any more: a longer
// probe tells a page that is merely slow (heavy start-up, long parse) from one
// that never yields, before the session closes it.
const AFTER_CANCEL_PROBE_MS = 3000;

/**
 * Finds and closes pages whose script never yields, which would time out
 * every later call of the session (the upstream leaves such a session stuck).
 * Checked after a call timed out, and after a client cancelled a call: the
 * cancelled call gets no answer, so the next call waits for the check and
 * carries its note.
 */
export class HangWatch {
  #browser: SessionBrowser;
  #log: Logger;
  #sessionId: string;
  #afterCancel: Promise<string | undefined> | undefined;

  constructor(browser: SessionBrowser, log: Logger, sessionId: string) {
    this.#browser = browser;
    this.#log = log;
    this.#sessionId = sessionId;
  }

  /** The note for a call that timed out, if pages were closed. */
  async afterTimeout(): Promise<string | undefined> {
    return this.#noteFor(await this.#browser.closeHungPages().catch(() => []));
  }

  /** Starts the check in the background; `pendingNote` hands its note to the next call. */
  afterCancel(): void {
    if (!this.#browser.running) return;
    this.#afterCancel ??= this.#browser.closeHungPages(AFTER_CANCEL_PROBE_MS).then(
      (closed) => this.#noteFor(closed),
      () => undefined,
    );
  }

  /** Waits for a check started by a cancel (bounded: two probes and a close), once. */
  async pendingNote(): Promise<string | undefined> {
    const pending = this.#afterCancel;
    this.#afterCancel = undefined;
    return pending;
  }

  #noteFor(closed: string[]): string | undefined {
    if (!closed.length) return undefined;
    const first = closed.slice(0, 5).join(', ');
    this.#log.warn(`session ${this.#sessionId}: closed ${closed.length} unresponsive page(s): ${first}${closed.length > 5 ? ', …' : ''}`);
    const named = closed.length > 5 ? `s ${first} and ${closed.length - 5} more` : ` ${first}`;
    return `Note: the page${named} stopped responding (a script that never yields); ${closed.length > 1 ? 'they were' : 'it was'} closed so this session can go on. Navigate to continue.`;
  }
}
