import type { SessionState } from './session-state.ts';

// A user's evaluation (browser_evaluate, a page function of browser_run_code_unsafe) and each
// input that runs the page's handlers are followed, in the same write, by a sync: what they made
// the page log before a navigation they start reaches Playwright, as with the domain on. Chromium
// holds a page's DevTools commands from the moment its main frame navigates until the new document
// commits (waiting-navigations.ts): a sync sent at the result's read would wait that long (a slow
// server: seconds), and the old document's messages are gone by then. In the same write, the sync
// reaches the renderer with the call and runs after the call's own code and microtasks. A call
// still awaiting a promise then (an async function) gets one more sync as its answer arrives,
// before a navigation it left to a timer starts (a race a loaded machine can lose at 10 ms).

export interface Syncs {
  /** A sync's first write, for the caller to send; undefined when one runs already (the next follows it). */
  write(sessionId: string, state: SessionState): string | undefined;
  request(sessionId: string, state: SessionState): void;
}

export class FollowedCalls {
  /** Calls awaiting their answer (Playwright's id): their session, and the first sync sent after them. */
  #calls = new Map<number, { sessionId: string; seq: number }>();
  #syncs: Syncs;

  constructor(syncs: Syncs) {
    this.#syncs = syncs;
  }

  /** The call (Playwright's id `id`) as text to send, a sync of its session after it. */
  followed(id: number, call: string, sessionId: string | undefined, state: SessionState | undefined): string {
    // A page behind a dialog answers no sync until it closes (the flush leaves it out too).
    if (!sessionId || !state?.quiet || state.dialogOpen) return call;
    const sync = this.#syncs.write(sessionId, state);
    // The number of the first sync to run after the call: this one, or the one that follows the running one.
    this.#calls.set(id, { sessionId, seq: state.started + (sync ? 0 : 1) });
    return sync ? `${call}\0${sync}` : call;
  }

  /** Chromium answered command `id`: a sync follows unless one started after the call still runs (its enable queued behind the call's code). */
  answered(id: number, sessions: ReadonlyMap<string, SessionState>): void {
    const call = this.#calls.get(id);
    if (!call) return;
    this.#calls.delete(id);
    const state = sessions.get(call.sessionId);
    if (state?.quiet && !state.dialogOpen && !(state.sync && state.sync.seq >= call.seq)) this.#syncs.request(call.sessionId, state);
  }

  /** The session went: its answers will not come. */
  forget(sessionId: string): void {
    for (const [id, call] of this.#calls) if (call.sessionId === sessionId) this.#calls.delete(id);
  }
}
