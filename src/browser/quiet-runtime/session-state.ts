import { CONSOLE_API_CALLED, ConsoleKeys, ERROR_ARGUMENT, type ReplayedCall } from './console-replay.ts';

// What the quiet runtime shim (runtime-shim.ts) keeps per DevTools session.

/**
 * V8's console storage is emptied (discardConsoleEntries) only once a replay
 * holds more than this, or an error: the discard also resets the page's
 * console.count() counters, which the upstream's page keeps. Otherwise every
 * sync replays the storage again and keys drop what was delivered
 * (console-replay.ts). A replay describes every stored message again; an
 * error is never kept, so the page's own error hooks are reached no more
 * often than with a discard at every sync.
 */
const KEEP_STORED_MESSAGES = 100;
const KEEP_STORED_BYTES = 512 * 1024;

/** What a sync's first replay showed V8's console storage to hold. */
export class StorageTally {
  #messages = 0;
  #bytes = 0;
  #errors = false;

  count(start: string, raw: string): void {
    this.#messages++;
    this.#bytes += raw.length;
    this.#errors ||= !start.startsWith(CONSOLE_API_CALLED) || raw.includes(ERROR_ARGUMENT);
  }

  get mustEmpty(): boolean {
    return this.#errors || this.#messages > KEEP_STORED_MESSAGES || this.#bytes > KEEP_STORED_BYTES;
  }
}

export interface Sync {
  /** Contexts the enable reported. */
  seen: Set<number>;
  seq: number;
  /** Something not delivered before came in the replay. */
  replayed: boolean;
  pass: 1 | 2 | 3;
  /** This pass's write empties the storage after its enable. */
  discarding: boolean;
  calls: ReplayedCall[];
  storage: StorageTally;
}

export interface SessionState {
  type: string;
  /** The DevTools target the session is attached to. */
  targetId: string | undefined;
  /** The page target that opened it (a popup's opener). */
  openerId: string | undefined;
  /** Playwright enabled the Runtime domain on it: one of Playwright's own sessions, not a CDP session a tool opened. */
  quiet: boolean;
  /** Context id → frame id, as Playwright knows them. */
  contexts: Map<number, string>;
  /** Playwright's Runtime.enable ids, answered when the next sync ends. */
  enables: number[];
  sync: Sync | undefined;
  again: boolean;
  /** Syncs started so far; a flush waits for one numbered past the count at its request. */
  started: number;
  waiters: { seq: number; resolve: () => void }[];
  /** When the last sync ended (performance.now()). */
  syncedAt: number;
  /** When the renderer last ran something of Playwright's, a sync or a script (performance.now()): its main thread was free then. */
  answeredAt: number;
  /** Playwright's bindings: Runtime.disable drops them for documents to come, so each sync adds them again. */
  bindings: Map<string, string | undefined>;
  keys: ConsoleKeys;
  /** Syncs since the storage was due to be emptied that put it off (the page was logging objects). */
  discardsPutOff: number;
  /** An alert, confirm, prompt or beforeunload dialog is open: the page answers nothing until it closes. */
  dialogOpen: boolean;
}

export function newSessionState(type: string, targetId: string | undefined, openerId?: string): SessionState {
  return { type, targetId, openerId, quiet: false, contexts: new Map(), enables: [], sync: undefined, again: false, started: 0, waiters: [], syncedAt: 0, answeredAt: 0, bindings: new Map(), keys: new ConsoleKeys(), discardsPutOff: 0, dialogOpen: false };
}

export function newSync(seq: number): Sync {
  return { seen: new Set(), seq, replayed: false, pass: 1, discarding: false, calls: [], storage: new StorageTally() };
}

/** A pass's enable answered: what the sync does next (runtime-shim.ts explains the passes). */
export type NextStep = 'end' | 'previews' | 'pass' | 'pass+discard';

/** A page logging objects puts the discard off this many syncs at most, then loses those previews. */
const MAX_DISCARDS_PUT_OFF = 3;

export function nextStep(state: SessionState): NextStep {
  const { pass, replayed, calls, discarding, storage } = state.sync!;
  const due = storage.mustEmpty;
  if (pass === 1) {
    if (!replayed && !due) return 'end';
    // Nothing new since the last sync: the page is quiet, a discard now loses nothing.
    return due && !replayed ? 'pass+discard' : 'pass';
  }
  if (pass === 3 || discarding) return 'end';
  if (calls.length === 0) return due ? 'pass+discard' : 'end';
  return due && state.discardsPutOff >= MAX_DISCARDS_PUT_OFF ? 'pass+discard' : 'previews';
}

/**
 * The pages an open dialog holds besides its own: those in its opener tree (a
 * popup and the page that opened it, through any popups between), which
 * share its renderer when of one site (related-dialogs.ts). Site is not
 * checked here: a page of another site in that tree only has its messages
 * wait for the dialog's end.
 */
export function heldByDialogs(sessions: Iterable<SessionState>): Set<SessionState> {
  const held = new Set<SessionState>();
  const pages = [...sessions].filter((state) => state.type === 'page' && state.targetId);
  const dialogs = pages.filter((state) => state.dialogOpen);
  if (!dialogs.length) return held;
  const byTarget = new Map(pages.map((state) => [state.targetId!, state]));
  // Up the opener ids; an opener that is gone ends the chain but is in it, so it still ties its popups together.
  const chain = (state: SessionState): string[] => {
    const ids: string[] = [];
    for (let id = state.targetId; id && !ids.includes(id) && ids.length < 20; id = byTarget.get(id)?.openerId) ids.push(id);
    return ids;
  };
  const dialogChains = dialogs.map(chain);
  for (const state of pages) {
    if (state.dialogOpen) continue;
    const mine = chain(state);
    if (dialogChains.some((theirs) => theirs.some((id) => mine.includes(id)))) held.add(state);
  }
  return held;
}
