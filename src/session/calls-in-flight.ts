/** A session's tool calls that have started and not ended, and a way to wait until there are none. */
export class CallsInFlight {
  #running = 0;
  #idle: (() => void)[] = [];

  get running(): number {
    return this.#running;
  }

  started(): void {
    this.#running++;
  }

  ended(): void {
    this.#running = Math.max(0, this.#running - 1);
    if (this.#running === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Resolves at once when no call is running, else when the last running one ends. */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
