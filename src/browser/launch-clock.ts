/** When this session's browser launches end (forward-call.ts counts a call's deadline from then). */
export interface LaunchClock {
  /** The launch under way (settles when it ends); undefined when none is. */
  inFlight(): Promise<void> | undefined;
  /** performance.now() when the last launch ended; -Infinity before any. */
  endedAt(): number;
}

/**
 * A tool call's deadline counts from the later of its start and the end of
 * the browser launch it waited for, as the upstream's timeouts count from its
 * browser being up. A launch is bounded by its own timeouts.
 */
export class LaunchTimes {
  #inFlight: Promise<void> | undefined;
  #endedAt = -Infinity;

  /** Follows a launch (or a warm page opening); returns it unchanged. */
  track<T>(launch: Promise<T>): Promise<T> {
    const settled = launch.then(
      () => {},
      () => {},
    );
    this.#inFlight = settled;
    void settled.then(() => {
      this.#endedAt = performance.now();
      if (this.#inFlight === settled) this.#inFlight = undefined;
    });
    return launch;
  }

  get clock(): LaunchClock {
    return { inFlight: () => this.#inFlight, endedAt: () => this.#endedAt };
  }
}
