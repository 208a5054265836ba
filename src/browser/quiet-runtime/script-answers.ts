import type { SessionState } from './session-state.ts';

// When each page's renderer last answered one of Playwright's own scripts
// (`SessionState.answeredAt`): its main thread was free then. The hang check
// does not wait on a busy page that did so a moment ago (hang-recovery.ts).

export class ScriptAnswers {
  /** Playwright's script commands under way → their session. */
  #pending = new Map<number, SessionState>();

  /** Playwright sent script command `id` on a quiet session. */
  sent(id: number, state: SessionState): void {
    this.#pending.set(id, state);
  }

  /** Chromium answered command `id`; `start` is the answer's first bytes. */
  answered(id: number, start: string): void {
    const state = this.#pending.get(id);
    if (!state) return;
    this.#pending.delete(id);
    // An error may be the browser's own (the session or context gone): only a result is the renderer's.
    if (start.startsWith(`{"id":${id},"result"`)) state.answeredAt = performance.now();
  }

  /** The session went: its answers will not come (or came as the shim's own, for a compiled evaluate). */
  forget(state: SessionState): void {
    for (const [id, pending] of this.#pending) if (pending === state) this.#pending.delete(id);
  }
}
