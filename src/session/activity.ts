/**
 * Work a session does outside MCP requests (a CDP client attached, a CDP
 * discovery launching the browser) keeps it from expiring as idle.
 */
export class Activity {
  #busy = 0;
  #last = Date.now();

  /** Marks work as started; call the returned function once when it ends. */
  begin(): () => void {
    this.#busy++;
    this.#last = Date.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#busy--;
      this.#last = Date.now();
    };
  }

  /** Milliseconds since the last work ended, or 0 while work is running. */
  idleFor(now = Date.now()): number {
    return this.#busy > 0 ? 0 : now - this.#last;
  }
}
