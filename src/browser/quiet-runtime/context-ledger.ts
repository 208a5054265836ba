import type { Message } from './watched-messages.ts';
import { SYNC_ON_LIFECYCLE } from './watched-messages.ts';
import type { SessionState } from './session-state.ts';

// The execution contexts Playwright knows of on one quiet session, kept in
// step with the page's events while the Runtime domain is off (runtime-shim.ts).
// Playwright learns a context from a sync's replay, and must lose it when its
// frame navigates or detaches, as it would with the domain on.

export interface ContextCounts {
  contextsCreated: number;
  contextsDestroyed: number;
}

/** What to deliver in place of an event (null: the event as it is) and whether a context may have appeared. */
export interface LedgerOutcome {
  deliver: string[] | null;
  sync: boolean;
}

const AS_IS: LedgerOutcome = { deliver: null, sync: false };
const SYNC: LedgerOutcome = { deliver: null, sync: true };

export function destroyedEvent(counts: ContextCounts, sessionId: string, executionContextId: number): string {
  counts.contextsDestroyed++;
  return JSON.stringify({ method: 'Runtime.executionContextDestroyed', params: { executionContextId, executionContextUniqueId: '' }, sessionId });
}

function destroyFrameContexts(counts: ContextCounts, sessionId: string, state: SessionState, frameId: string): string[] {
  const out: string[] = [];
  for (const [id, frame] of state.contexts) {
    if (frame !== frameId) continue;
    state.contexts.delete(id);
    out.push(destroyedEvent(counts, sessionId, id));
  }
  return out;
}

/** One watched event on a quiet session (its raw text and parsed form). */
export function contextEvent(counts: ContextCounts, sessionId: string, state: SessionState, raw: string, message: Message): LedgerOutcome {
  const params = message.params ?? {};
  switch (message.method) {
    case 'Runtime.executionContextCreated': {
      const context = params.context as { id: number; auxData?: { frameId?: string } };
      state.sync?.seen.add(context.id);
      if (state.contexts.has(context.id)) return { deliver: [], sync: false };
      state.contexts.set(context.id, context.auxData?.frameId ?? '');
      counts.contextsCreated++;
      return AS_IS;
    }
    case 'Runtime.executionContextDestroyed':
      return state.contexts.delete(params.executionContextId as number) ? AS_IS : { deliver: [], sync: false };
    case 'Runtime.executionContextsCleared':
      state.contexts.clear();
      return AS_IS;
    case 'Page.frameNavigated':
      // The frame's old contexts went with its old document, before this
      // event (Chromium orders it so with the domain on; Playwright relies on it).
      return { deliver: [...destroyFrameContexts(counts, sessionId, state, (params.frame as { id: string }).id), raw], sync: true };
    case 'Page.frameDetached':
      return { deliver: [...destroyFrameContexts(counts, sessionId, state, params.frameId as string), raw], sync: false };
    case 'Page.frameAttached':
    case 'Page.frameStartedNavigating':
    case 'Inspector.workerScriptLoaded':
    case 'Inspector.targetReloadedAfterCrash':
      return SYNC;
    case 'Page.lifecycleEvent':
      return SYNC_ON_LIFECYCLE.has(params.name as string) ? SYNC : AS_IS;
    case 'Inspector.targetCrashed':
      // A crash takes an open dialog with it, without its closed event.
      state.contexts.clear();
      state.dialogOpen = false;
      return AS_IS;
    case 'Page.javascriptDialogOpening':
      // Its waiters, and those of the pages it holds, are released by the shim (runtime-shim.ts).
      state.dialogOpen = true;
      return AS_IS;
    case 'Page.javascriptDialogClosed':
      state.dialogOpen = false;
      return AS_IS;
  }
  return AS_IS;
}
