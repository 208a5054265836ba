import { contextEvent } from './context-ledger.ts';
import { previewArrived, releaseCall, replayedMessage } from './console-replay.ts';
import type { Slot } from './ordered-outbox.ts';
import type { UserAgentOverride } from '../client-hints.ts';
import { onQuietTargetCommand, type QuietTarget } from './driver-commands.ts';
import { OwnCommands } from './own-commands.ts';
import { RendererControl } from './renderer-control.ts';
import { SetContentTags } from './set-content-tag.ts';
import { heldByDialogs, newSessionState, newSync, type SessionState } from './session-state.ts';
import { enableAnswered } from './sync-pass.ts';
import { UserAgentHints } from './user-agent-hints.ts';
import { UserScripts } from '../user-scripts.ts';
import { asksForGesture, withoutGesture } from './user-gesture.ts';
import { afterCompile, userEvaluateCommand } from './compiled-evaluate.ts';
import { ScriptAnswers } from './script-answers.ts';
import { FollowedCalls } from './followed-calls.ts';
import { renamedUtilityEvaluate, UTILITY_SOURCE_HEAD } from './anonymous-utility.ts';
import { EVENT_PREFIX, INPUT_METHODS, QUIET_INPUT, QUIET_TYPES, USER_AGENT_METHODS, REPLAYED_EVENTS, REQUEST_HEAD, RESPONSE_ID, SCRIPT_METHODS, SESSION_AT_END, SYNC_ON_LIFECYCLE_NAMES, WATCHED_COMMANDS, WATCHED_EVENTS, WINDOW_METHODS, type Message } from './watched-messages.ts';
import { HeadlessWindow } from './headless-window.ts';

// Keeps CDP's Runtime domain off on page, frame and worker targets, and
// syncs it on and off when Playwright needs to learn its contexts: why and
// how, and what stays visible to a page, in README.md beside this file.

/**
 * Script Playwright runs in a page after this long without a sync is preceded
 * by one, so its own console listeners (browser_run_code_unsafe) hear what
 * the page logged; the upstream's reads flush explicitly (console-flush.ts).
 */
const FLUSH_AFTER_MS = 1000;

export interface ShimCounters {
  syncs: number;
  contextsCreated: number;
  contextsDestroyed: number;
}

export class QuietRuntime {
  readonly counters: ShimCounters = { syncs: 0, contextsCreated: 0, contextsDestroyed: 0 };
  /** While none runs, Playwright's evaluations go without a user gesture (user-gesture.ts); the session's own, once it takes the shim. */
  userScripts = new UserScripts();
  #sessions = new Map<string, SessionState>();
  #own = new OwnCommands();
  #setContentTags = new SetContentTags();
  /** Stops, probes or crashes a page's renderer on Playwright's own sessions (renderer-control.ts). */
  readonly renderers = new RendererControl(this.#sessions, this.#own, (message) => this.#toBrowser(message));
  /** Playwright's Page.createIsolatedWorld ids → session: a new world to sync after. */
  #worldRequests = new Map<number, string>();
  #scriptAnswers = new ScriptAnswers();
  /** Users' evaluations and input, each with a sync behind it (followed-calls.ts). */
  #followed = new FollowedCalls({ write: (sessionId, state) => this.#syncWrite(sessionId, state), request: (sessionId, state) => this.#requestSync(sessionId, state) });
  #quietTarget: QuietTarget = { worldRequests: this.#worldRequests, toDriver: (message) => this.#toDriver(message), requestSync: (sessionId, state) => this.#requestSync(sessionId, state) };
  #hold: () => Slot;
  #gate: () => () => void;
  #toBrowser: (message: string) => void;
  #toDriver: (message: string) => void;
  #keepConsole: boolean;
  #hints: UserAgentHints | undefined;
  #window: HeadlessWindow | undefined;

  /**
   * keepConsole false: each sync first discards what the page logged, so nothing it logged is ever described.
   * userAgent: given to every page, frame and worker before it runs (client-hints.ts).
   */
  constructor(io: { keepConsole?: boolean; userAgent?: UserAgentOverride; headlessWindow?: boolean; toBrowser(message: string): void; toDriver(message: string): void; hold(): Slot; gate(): () => void }) {
    if (io.headlessWindow) this.#window = new HeadlessWindow();
    this.#toBrowser = io.toBrowser;
    this.#hold = io.hold;
    this.#gate = io.gate;
    this.#toDriver = io.toDriver;
    this.#keepConsole = io.keepConsole ?? true;
    if (io.userAgent) this.#hints = new UserAgentHints(io.userAgent, (sessionId, method, params) => this.#toBrowser(this.#own.command(sessionId, method, params).text));
  }

  /**
   * Lets every page's stored console messages and errors through to
   * Playwright; resolves once each page had a sync that started after this
   * call (a page that is gone, or busy forever, is the caller's deadline).
   */
  flush(): Promise<void> {
    return Promise.all(this.#syncAll(true)).then(() => undefined);
  }

  /** As flush(), with nobody waiting: what the pages logged reaches Playwright's listeners. */
  nudge(): void {
    this.#syncAll(false);
  }

  #syncAll(wait: boolean): Promise<void>[] {
    const waits: Promise<void>[] = [];
    const held = heldByDialogs(this.#sessions.values());
    for (const [sessionId, state] of this.#sessions) {
      // A page behind a dialog keeps its messages until the dialog closes; waiting would only run out the caller's deadline.
      if (!state.quiet || state.dialogOpen || held.has(state)) continue;
      const seq = state.started + 1;
      if (wait) waits.push(new Promise((resolve) => state.waiters.push({ seq, resolve })));
      this.#requestSync(sessionId, state);
    }
    return waits;
  }

  /**
   * Holds everything Chromium sends Playwright (events and answers alike)
   * until the returned function is called: for reads that must see one
   * moment, and need no answer from the browser in between.
   */
  holdDeliveries(): () => void {
    return this.#gate();
  }

  /**
   * A message from Playwright (its first bytes, and the whole text on demand):
   * true to send it as it is, false when it was answered here and must not
   * reach Chromium, or the text to send in its place.
   */
  fromDriver(start: string, end: string, full: () => string): boolean | string {
    const head = REQUEST_HEAD.exec(start);
    if (!head || !WATCHED_COMMANDS.has(head[2]!)) return true;
    const method = head[2]!;
    if (WINDOW_METHODS.has(method)) return this.#window?.command(method, Number(head[1]), full) ?? true;
    if (INPUT_METHODS.has(method)) {
      if (QUIET_INPUT.test(start)) return true;
      const sessionId = SESSION_AT_END.exec(end)?.[1];
      return this.#followed.followed(Number(head[1]), full(), sessionId, sessionId ? this.#sessions.get(sessionId) : undefined);
    }
    if (SCRIPT_METHODS.has(method)) {
      const sessionId = SESSION_AT_END.exec(end)?.[1];
      const state = sessionId ? this.#sessions.get(sessionId) : undefined;
      if (sessionId && state?.quiet && !state.sync && performance.now() - state.syncedAt > FLUSH_AFTER_MS) this.#requestSync(sessionId, state);
      if (state?.quiet) this.#scriptAnswers.sent(Number(head[1]), state);
      if (method !== 'Runtime.callFunctionOn') return (start.includes(UTILITY_SOURCE_HEAD) && renamedUtilityEvaluate(full())) || true;
      if (!this.userScripts.running) return asksForGesture(end) ? withoutGesture(full()) : true;
      const text = full();
      const tag = sessionId && this.#setContentTags.announce(text, sessionId);
      if (tag) this.#toDriver(tag);
      const command = userEvaluateCommand(text, this.userScripts.sources, this.#own, sessionId, state?.type);
      if (command === true || 'compile' in command) return command === true || command.compile;
      return this.#followed.followed(Number(head[1]), command.call, sessionId, state);
    }
    const hinted = method === 'Target.detachFromTarget' || USER_AGENT_METHODS.has(method);
    // Without client hints to keep, those commands are not this shim's.
    if (hinted && !this.#hints) return true;
    const message = JSON.parse(full()) as Message;
    if (method === 'Target.detachFromTarget') {
      const answer = this.#hints!.detaching(message);
      if (answer) this.#toDriver(answer);
      return !answer;
    }
    if (hinted) return this.#hints!.rewritten(message) ?? true;
    const state = message.sessionId ? this.#sessions.get(message.sessionId) : undefined;
    if (!state || !QUIET_TYPES.has(state.type)) return true;
    const sessionId = message.sessionId!;
    return onQuietTargetCommand(method, message, sessionId, state, this.#quietTarget);
  }

  /**
   * A message from Chromium: null to deliver it as it is, or the messages to
   * deliver in its place (none, or synthesized ones around it).
   */
  fromBrowser(start: string, end: string, full: () => string): string[] | null {
    if (REPLAYED_EVENTS.some((prefix) => start.startsWith(prefix))) return this.#onReplayed(start, end, full);
    if (start.startsWith(EVENT_PREFIX)) {
      const method = start.slice(EVENT_PREFIX.length, start.indexOf('"', EVENT_PREFIX.length));
      if (!WATCHED_EVENTS.has(method)) return null;
      const raw = full();
      // Several per navigation, one of which matters: its params hold ids, a name and a time, nothing that could contain this.
      if (method === 'Page.lifecycleEvent' && !SYNC_ON_LIFECYCLE_NAMES.some((name) => raw.includes(name))) return null;
      return this.#onEvent(raw, JSON.parse(raw) as Message);
    }
    const id = RESPONSE_ID.exec(start);
    if (!id) return null;
    const n = Number(id[1]);
    if (OwnCommands.owns(n)) return this.#onOwnResponse(n, JSON.parse(full()) as Message);
    this.#window?.answered(n, full);
    this.#scriptAnswers.answered(n, start);
    this.#followed.answered(n, this.#sessions);
    const worldSession = this.#worldRequests.get(n);
    if (worldSession !== undefined) {
      this.#worldRequests.delete(n);
      const state = this.#sessions.get(worldSession);
      if (state?.quiet) this.#requestSync(worldSession, state);
    }
    return null;
  }

  #onReplayed(start: string, end: string, full: () => string): string[] | null {
    const state = this.#sessions.get(SESSION_AT_END.exec(end)?.[1] ?? '');
    if (!state?.quiet) return null;
    if (this.#setContentTags.announced(start, full)) return [];
    // Without the console kept, a message the page logged between a sync's discard and its enable
    // (a busy machine allows it: one CI run listed four) is described, but never listed.
    if (!this.#keepConsole) {
      if (state.sync) state.sync.replayed = true;
      return [];
    }
    return replayedMessage(state, start, full(), this.#hold);
  }

  #onEvent(raw: string, message: Message): string[] | null {
    const params = message.params ?? {};
    if (message.method === 'Target.attachedToTarget') {
      const info = params.targetInfo as { type?: string; targetId?: string; openerId?: string } | undefined;
      const type = info?.type ?? 'other';
      this.#sessions.set(params.sessionId as string, newSessionState(type, info?.targetId, info?.openerId));
      this.#hints?.attached(params.sessionId as string, type);
      return null;
    }
    if (message.method === 'Target.detachedFromTarget') {
      this.#hints?.detached(params.sessionId as string);
      const gone = this.#sessions.get(params.sessionId as string);
      for (const waiter of gone?.waiters.splice(0) ?? []) waiter.resolve();
      for (const purpose of this.#own.forget(params.sessionId as string)) if (purpose.kind === 'preview') releaseCall(purpose.call);
      else if (purpose.kind === 'answered') purpose.resolve();
      for (const call of gone?.sync?.calls ?? []) releaseCall(call);
      if (gone) this.#scriptAnswers.forget(gone);
      this.#followed.forget(params.sessionId as string);
      this.#sessions.delete(params.sessionId as string);
      return null;
    }
    const sessionId = message.sessionId;
    const state = sessionId ? this.#sessions.get(sessionId) : undefined;
    if (!state?.quiet || !sessionId) return null;
    const outcome = contextEvent(this.counters, sessionId, state, raw, message);
    if (outcome.sync) this.#requestSync(sessionId, state);
    // A page behind a dialog, and the pages that dialog holds, answer no sync until it closes: a flush waiting on them stops waiting.
    if (message.method === 'Page.javascriptDialogOpening') for (const held of [state, ...heldByDialogs(this.#sessions.values())]) for (const waiter of held.waiters.splice(0)) waiter.resolve();
    return outcome.deliver;
  }

  #requestSync(sessionId: string, state: SessionState): void {
    const write = this.#syncWrite(sessionId, state);
    // One write: Chromium runs them back to back.
    if (write) this.#toBrowser(write);
  }

  /** A sync's first write, for the caller to send; undefined when one runs already (the next follows it). */
  #syncWrite(sessionId: string, state: SessionState): string | undefined {
    if (state.sync) {
      state.again = true;
      return undefined;
    }
    state.sync = newSync(++state.started);
    this.counters.syncs++;
    return this.#own.firstPass(sessionId, state.bindings, this.#keepConsole);
  }

  #onOwnResponse(id: number, message: Message): string[] {
    const purpose = this.#own.take(id);
    if (!purpose) return [];
    const { sessionId } = purpose;
    const state = this.#sessions.get(sessionId);
    if (purpose.kind === 'answered') {
      purpose.resolve();
      return [];
    }
    if (purpose.kind === 'compiled') {
      const next = afterCompile(this.#own, sessionId, purpose.plan, message);
      if (next.toBrowser) this.#toBrowser(this.#followed.followed(purpose.plan.message.id, next.toBrowser, sessionId, state));
      return next.toDriver ? [next.toDriver] : [];
    }
    if (purpose.kind === 'preview') previewArrived(purpose.call, purpose.index, (message.result as { result?: { preview?: unknown } } | undefined)?.result?.preview);
    else if (purpose.kind === 'disable') state?.keys.replayStarts();
    else if (purpose.kind === 'discard' && state) {
      state.keys.discarded();
      state.discardsPutOff = 0;
    }
    if (purpose.kind === 'previewed') return state?.sync ? this.#endSync(sessionId, state, []) : [];
    if (purpose.kind !== 'enable' || !state?.sync) return [];
    const { out, done } = enableAnswered(this.#own, this.counters, sessionId, state, message, this.#keepConsole, (text) => this.#toBrowser(text));
    return done ? this.#endSync(sessionId, state, out) : out;
  }

  #endSync(sessionId: string, state: SessionState, out: string[]): string[] {
    const { seq } = state.sync!;
    for (const call of state.sync!.calls) releaseCall(call);
    state.sync = undefined;
    state.syncedAt = state.answeredAt = performance.now();
    state.waiters = state.waiters.filter((waiter) => (waiter.seq <= seq ? (waiter.resolve(), false) : true));
    if (state.again) {
      state.again = false;
      this.#requestSync(sessionId, state);
    }
    return out;
  }
}
