import type { BrowserContext, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import { pageSessions } from './page-sessions.ts';

/** A handler that fetches its challenge from its server first may ask after the call has answered (a round trip later). */
const GRACE_MS = 2_000;
/** Enabling is a browser-side command (~1 ms); a page whose renderer hangs does not hold it, this bounds a browser that does. */
const COMMAND_MS = 1_000;

/**
 * A page that calls navigator.credentials.create() or get() (a "Sign in with a
 * passkey" button) makes Chromium on Linux open its security-key dialog in the
 * tab, headless too, where nobody sees it: until the request ends (its timeout,
 * often minutes) the tab takes no input, every later click reports success and
 * reaches nothing (the upstream the same). Chromium's virtual authenticator
 * environment (the WebAuthn domain, no authenticator, no UI) takes such a
 * request instead: it waits without a dialog, as one a user left unanswered,
 * and the tab stays usable. The environment is on only while an input tool
 * runs and after it until the next other tool starts (at most GRACE_MS): while
 * on, the page reads PublicKeyCredential.isConditionalMediationAvailable() as
 * false (true otherwise), and pages ask that on load, not from a click's
 * handler.
 */
export class PasskeyGuard {
  readonly #contexts = new Set<BrowserContext>();
  readonly #session = pageSessions(COMMAND_MS);
  #running = 0;
  #graceTimer: NodeJS.Timeout | undefined;
  #on = false;

  /** Covers the pages of `context` too (the session's own, and each isolated one). */
  watch(context: BrowserContext): void {
    this.#contexts.add(context);
    context.on('close', () => this.#contexts.delete(context));
    context.on('page', (page) => {
      if (this.#on) void this.#send(page, true);
    });
  }

  /** Before an input tool runs; the returned function ends its window (after GRACE_MS). */
  async inputStarts(): Promise<() => void> {
    this.#running++;
    clearTimeout(this.#graceTimer);
    if (!this.#on) {
      this.#on = true;
      await this.#sendAll(true);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#running) return;
      this.#graceTimer = setTimeout(() => {
        if (this.#running) return;
        this.#on = false;
        void this.#sendAll(false);
      }, GRACE_MS);
      this.#graceTimer.unref();
    };
  }

  /** Before any other tool: the page reads what it reads without the environment (an evaluate asking for conditional mediation, a page loading). */
  async otherStarts(): Promise<void> {
    if (!this.#on || this.#running) return;
    clearTimeout(this.#graceTimer);
    this.#on = false;
    await this.#sendAll(false);
  }

  async #sendAll(enable: boolean): Promise<void> {
    await Promise.all([...this.#contexts].flatMap((context) => context.pages()).map((page) => this.#send(page, enable)));
  }

  async #send(page: Page, enable: boolean): Promise<void> {
    if (page.isClosed()) return;
    const session = await this.#session(page);
    if (!session) return;
    const command = enable ? session.send('WebAuthn.enable', { enableUI: false }) : session.send('WebAuthn.disable');
    await withDeadline(command.catch(() => {}), COMMAND_MS);
  }
}
