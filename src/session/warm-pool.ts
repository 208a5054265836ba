import type { SessionBrowser } from '../browser/session-browser.ts';
import type { Logger } from '../log.ts';

export interface WarmPoolInfo {
  size: number;
  ready: number;
  launching: number;
  taken: number;
}

const RETRY_MS = [1000, 5000, 30_000];

/**
 * Browsers launched before a session needs them (HTTP). Each is a fresh
 * SessionBrowser with its own fingerprint seed, handed to exactly one session
 * and gone with it: never reused. Taking one refills the pool in the background.
 */
export class WarmPool {
  #size: number;
  #make: () => SessionBrowser;
  #log: Logger;
  #ready: SessionBrowser[] = [];
  #launching = new Set<SessionBrowser>();
  #taken = 0;
  #failures = 0;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(size: number, make: () => SessionBrowser, log: Logger) {
    this.#size = size;
    this.#make = make;
    this.#log = log;
  }

  /** Launches until the pool holds `size` browsers (ready or launching). */
  fill(): void {
    while (!this.#closed && this.#ready.length + this.#launching.size < this.#size) this.#launchOne();
  }

  #launchOne(): void {
    const browser = this.#make();
    this.#launching.add(browser);
    browser.context().then(
      () => {
        this.#launching.delete(browser);
        if (this.#closed) return void browser.close();
        this.#failures = 0;
        this.#ready.push(browser);
        // A pool browser that dies (OOM killer, crash) is replaced; no session ever sees it.
        browser.onGone(() => this.#drop(browser));
      },
      (error: unknown) => {
        this.#launching.delete(browser);
        void browser.close();
        if (this.#closed) return;
        const wait = RETRY_MS[Math.min(this.#failures++, RETRY_MS.length - 1)]!;
        this.#log.warn(`warm browser failed to launch (retry in ${wait} ms): ${(error as Error).message.split('\n')[0]}`);
        this.#timer = setTimeout(() => this.fill(), wait);
      },
    );
  }

  #drop(browser: SessionBrowser): void {
    const index = this.#ready.indexOf(browser);
    if (index === -1) return;
    this.#ready.splice(index, 1);
    this.#log.warn('a warm browser exited before any session took it; replacing it');
    void browser.close();
    this.fill();
  }

  /** A launched browser for a new session, or undefined when none is ready. */
  take(): SessionBrowser | undefined {
    let browser: SessionBrowser | undefined;
    while ((browser = this.#ready.shift()) && !browser.running) void browser.close();
    if (browser) this.#taken++;
    this.fill();
    return browser;
  }

  info(): WarmPoolInfo {
    return { size: this.#size, ready: this.#ready.length, launching: this.#launching.size, taken: this.#taken };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const all = [...this.#ready.splice(0), ...this.#launching];
    await Promise.allSettled(all.map((b) => b.close()));
  }
}
