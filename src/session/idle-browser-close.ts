// --idle-timeout (the upstream's flag; PLAYWRIGHT_MCP_IDLE_TIMEOUT, or
// `timeouts.idle` in its config file): a session's browser is closed after
// that long without a tool call, and the next call launches a new one, as
// under the upstream CLI. The upstream arms its timer when a call starts, so a
// call longer than the timeout loses its browser midway ("No open pages
// available"); this one is armed when the last running call ends. Unset, the
// browser lives as long as the session (the upstream closes a headless one
// after an hour idle by default; docs/playwright-mcp-compat.md).

export class IdleBrowserClose {
  #timeoutMs: number | undefined;
  #close: () => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  constructor(timeoutMs: number | undefined, close: () => Promise<void>) {
    this.#timeoutMs = timeoutMs && timeoutMs > 0 ? timeoutMs : undefined;
    this.#close = close;
  }

  /** A call starts: no close from now on; resolves once a close already under way is done. */
  async callStarts(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#closing;
  }

  /** A call ended; with none left running, the countdown starts. */
  callEnded(running: number): void {
    if (this.#timeoutMs === undefined || running > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#closing = this.#close()
        .catch(() => {})
        .finally(() => (this.#closing = undefined));
    }, this.#timeoutMs);
    this.#timer.unref();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
