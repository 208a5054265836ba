import type { SessionState } from './session-state.ts';
import type { Message } from './watched-messages.ts';

// What Playwright asks of a page, frame or worker target whose Runtime domain
// the shim keeps off (runtime-shim.ts): the commands that would turn it on or
// off, and those whose effect a sync must repeat or follow.

export interface QuietTarget {
  /** Playwright's Page.createIsolatedWorld ids → session: a new world to sync after. */
  worldRequests: Map<number, string>;
  toDriver(message: string): void;
  requestSync(sessionId: string, state: SessionState): void;
}

/** true to send the command on to Chromium, false when it was answered here. */
export function onQuietTargetCommand(method: string, message: Message, sessionId: string, state: SessionState, target: QuietTarget): boolean {
  if (method === 'Runtime.addBinding') {
    // One context's binding lives and dies with that context.
    if (message.params?.executionContextId === undefined) state.bindings.set(String(message.params?.name), message.params?.executionContextName as string | undefined);
    return true;
  }
  if (method === 'Runtime.removeBinding') {
    state.bindings.delete(String(message.params?.name));
    return true;
  }
  if (method === 'Page.createIsolatedWorld') {
    target.worldRequests.set(message.id!, sessionId);
    return true;
  }
  if (method === 'Runtime.disable') {
    // Already off; Playwright's own enable/disable retry (WebView) still gets its answer.
    target.toDriver(JSON.stringify({ id: message.id, result: {}, sessionId }));
    return false;
  }
  // Runtime.enable: answered by a sync.
  state.quiet = true;
  state.enables.push(message.id!);
  target.requestSync(sessionId, state);
  return false;
}
