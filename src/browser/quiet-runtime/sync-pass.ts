import { previewsAsked } from './console-replay.ts';
import { destroyedEvent, type ContextCounts } from './context-ledger.ts';
import type { OwnCommands } from './own-commands.ts';
import { nextStep, type SessionState } from './session-state.ts';
import type { Message } from './watched-messages.ts';

// A sync's pass ends when its `Runtime.enable` answers (runtime-shim.ts has the whole story):
// Chromium has then reported every live context, so what it did not report is gone, and what
// the pass replayed decides whether another pass follows.

export interface PassEnd {
  /** Messages for Playwright: a destroyed event per context gone, then the answers to its own enables. */
  out: string[];
  /** True when the sync is over; false when the next pass (or the previews) went to Chromium. */
  done: boolean;
}

export function enableAnswered(own: OwnCommands, counts: ContextCounts, sessionId: string, state: SessionState, message: Message, keepConsole: boolean, toBrowser: (message: string) => void): PassEnd {
  const { seen, pass, calls } = state.sync!;
  const out: string[] = [];
  // A context the enable did not report is gone (its frame navigated or detached while the domain was off).
  if (!message.error) for (const contextId of [...state.contexts.keys()]) if (!seen.has(contextId)) (state.contexts.delete(contextId), out.push(destroyedEvent(counts, sessionId, contextId)));
  for (const enableId of state.enables.splice(0)) out.push(JSON.stringify(message.error ? { id: enableId, error: message.error, sessionId } : { id: enableId, result: {}, sessionId }));
  const step = message.error ? 'end' : nextStep(state);
  if (step === 'end') return { out, done: true };
  if (!keepConsole) {
    toBrowser(own.discard(sessionId));
    return { out, done: true };
  }
  if (step === 'previews' && state.sync!.storage.mustEmpty) state.discardsPutOff++;
  const discarding = step === 'pass+discard';
  state.sync = { ...state.sync!, seen: new Set(), pass: pass === 1 ? 2 : 3, discarding, calls: [] };
  toBrowser(step === 'previews' ? own.lastPreviews(sessionId, calls) : own.nextPass(sessionId, state.bindings, calls, discarding));
  previewsAsked(calls);
  return { out, done: false };
}
