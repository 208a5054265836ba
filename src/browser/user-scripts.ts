// While a tool runs script the user wrote (browser_evaluate,
// browser_run_code_unsafe, browser_webmcp_call), the page gets Playwright's
// behaviour as on the upstream: evaluations keep their user gesture
// (quiet-runtime/user-gesture.ts) and element handles are the page's own
// (utility-world.ts). One counter per session serves both.

/** Counts the user's scripts in flight. */
export class UserScripts {
  #running = 0;

  get running(): boolean {
    return this.#running > 0;
  }

  /** A user's script starts; the returned function ends it (once). */
  start(): () => void {
    this.#running++;
    let ended = false;
    return () => {
      if (!ended) (ended = true), this.#running--;
    };
  }
}
