import type { UserAgentOverride } from '../client-hints.ts';
import type { Message } from './watched-messages.ts';

// Our user agent's client hints (client-hints.ts), given to each target as it
// attaches, before Playwright hears of it and lets it run. An override lives
// as long as the DevTools session that set it: Playwright lets go of a shared
// worker at once (it does not drive them), which would take the hints with
// it, so that detach is answered here and the session kept until the worker
// ends. Nothing is enabled on it: it carries the override and nothing else.
// Playwright's own override without a user agent (a service worker gets one
// always, a page when the context has a locale) would put the hints back to
// empty: it is sent with ours filled in.

/** Target types that get the hints. */
const HINTED_TYPES = new Set(['page', 'iframe', 'worker', 'service_worker', 'shared_worker']);
/** Sessions Playwright detaches from at once. */
const KEPT_TYPES = new Set(['shared_worker']);

export class UserAgentHints {
  readonly #override: UserAgentOverride;
  readonly #send: (sessionId: string, method: string, params: Record<string, unknown>) => void;
  #kept = new Set<string>();

  constructor(override: UserAgentOverride, send: (sessionId: string, method: string, params: Record<string, unknown>) => void) {
    this.#override = override;
    this.#send = send;
  }

  attached(sessionId: string, type: string): void {
    if (!HINTED_TYPES.has(type)) return;
    this.#send(sessionId, 'Network.setUserAgentOverride', { ...this.#override });
    if (KEPT_TYPES.has(type)) this.#kept.add(sessionId);
  }

  detached(sessionId: string): void {
    this.#kept.delete(sessionId);
  }

  /** Playwright's user-agent override, with ours in place of its "none" (it sets a user agent only when the user gave one, and then no hints are ours). */
  rewritten(message: Message): string | undefined {
    if (message.params?.userAgent) return undefined;
    return JSON.stringify({ ...message, params: { ...message.params, ...this.#override } });
  }

  /** Playwright's Target.detachFromTarget: the answer to give it in Chromium's place, for a session kept. */
  detaching(message: Message): string | undefined {
    const sessionId = message.params?.sessionId;
    if (typeof sessionId !== 'string' || !this.#kept.has(sessionId)) return undefined;
    return JSON.stringify({ id: message.id, result: {}, ...(message.sessionId ? { sessionId: message.sessionId } : {}) });
  }
}
