// While a tool runs script the user wrote (browser_evaluate,
// browser_run_code_unsafe, browser_webmcp_call), the page gets Playwright's
// behaviour as on the upstream: evaluations keep their user gesture
// (quiet-runtime/user-gesture.ts) and element handles are the page's own
// (utility-world.ts). One counter per session serves both.

/** Counts the user's scripts in flight, with the code of those that carry their own (browser_run_code_unsafe's). */
export class UserScripts {
  #running = 0;
  #sources: string[] = [];
  #onCode: ((running: boolean) => void) | undefined;

  /**
   * Told when code of the user's own (browser_run_code_unsafe) starts running,
   * and when the last of it ends. A listener that replaces another (a browser
   * launched again) takes over at once: the other is told the code ended.
   */
  onCode(listener: (running: boolean) => void): void {
    this.#onCode?.(false);
    this.#onCode = listener;
    if (this.#sources.length) listener(true);
  }

  get running(): boolean {
    return this.#running > 0;
  }

  /** The code of the scripts in flight: the page functions it hands Playwright are in it (quiet-runtime/user-evaluate.ts). */
  get sources(): readonly string[] {
    return this.#sources;
  }

  /** A user's script starts; the returned function ends it (once). */
  start(source?: string): () => void {
    this.#running++;
    if (source && this.#sources.push(source) === 1) this.#onCode?.(true);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#running--;
      if (!source) return;
      this.#sources.splice(this.#sources.indexOf(source), 1);
      if (!this.#sources.length) this.#onCode?.(false);
    };
  }
}
