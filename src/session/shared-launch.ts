import { attaching, type UpstreamConfig } from '../config/upstream.ts';
import type { Config } from '../config/settings.ts';
import { SessionLaunch, type LaunchInputs } from './session-launch.ts';
import { SessionRefused } from './session-refused.ts';
import { headerName, ownFields, type SessionOverrides } from './session-overrides.ts';

/**
 * --shared-browser-context over HTTP: every client's session works in one
 * browser and its context (tabs, cookies, storage), as under the upstream CLI.
 * Attached to a browser of the user's (--cdp-endpoint), sessions share that one
 * already; with --isolated the upstream gives each client a context of its own,
 * which a browser of its own is here (config/upstream.ts clears the flag then).
 */
export function sharesOneContext(config: Config, upstream: UpstreamConfig): boolean {
  return config.transport !== 'stdio' && upstream.sharedBrowserContext === true && !attaching(upstream);
}

/**
 * The one launch the sessions share: started with the first session, closed
 * with the last (the upstream closes its shared browser when its last client
 * leaves). A session that comes while the last one's browser is closing waits
 * for it: a persistent profile is free again only then.
 */
export class SharedLaunch {
  #inputs: LaunchInputs;
  #launch: SessionLaunch | undefined;
  #users = 0;
  #closing: Promise<void> = Promise.resolve();

  constructor(inputs: LaunchInputs) {
    this.#inputs = inputs;
  }

  /** The launch for a new session; refused if the client asked for settings of its own. */
  acquire(overrides: SessionOverrides): SessionLaunch {
    const own = ownFields(overrides);
    if (own.length) {
      const named = own.map((field) => `${field} (${headerName(field)})`).join(', ');
      throw new SessionRefused(
        `This server gives every client one shared browser context (--shared-browser-context), so a session cannot have settings of its own: ${named}. Start the session without them, or ask the operator to run without --shared-browser-context.`,
        400,
      );
    }
    this.#launch ??= new SessionLaunch({ ...this.#inputs, overrides: {} });
    this.#users++;
    return this.#launch;
  }

  /** Resolves once a previous shared browser has finished closing. */
  settled(): Promise<void> {
    return this.#closing;
  }

  /** A session ended: the last one closes the browser. */
  release(launch: SessionLaunch): Promise<void> {
    if (launch !== this.#launch || --this.#users > 0) return this.#closing;
    this.#launch = undefined;
    const closing = launch.close();
    // A close that failed (reported by the session that ended) must not keep the next sessions from starting.
    this.#closing = closing.catch(() => {});
    return closing;
  }

  info(): { sessions: number; browserRunning: boolean } {
    return { sessions: this.#users, browserRunning: this.#launch?.browser.running ?? false };
  }
}
