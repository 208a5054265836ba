import type { Slot } from './ordered-outbox.ts';
import type { SessionState } from './session-state.ts';

// What a page logged reaches Playwright at the shim's syncs (runtime-shim.ts),
// replayed by Runtime.enable from V8's console storage. Two things differ from
// a Runtime domain left on, and are mended here:
//
// - A message stays in the storage until a discard (kept until the storage
//   grows large: a discard also resets console.count()). Every enable replays
//   it, and one logged while the domain is on for a sync is delivered live and
//   replayed again: each message has a key, and one delivered already is dropped.
//   Console calls are keyed by type, timestamp and their rank among calls of
//   the same type and timestamp since the storage's start (several can share a
//   microsecond); uncaught errors by their exceptionId. Ranks restart where
//   the pipe says the storage is read from its start again: after a disable's
//   answer (the next replay) and after a discard's.
// - A replay describes arguments without previews (V8 reports stored messages
//   with generatePreview off), so Playwright's text of `console.log('x', {a: 1})`
//   would read "x Object" where the upstream's reads "x {a: 1}". Such a call
//   holds its place in the pipe until the objects' previews are fetched
//   (Runtime.callFunctionOn with generatePreview, before the discard releases
//   them); everything after it waits behind it.

export const CONSOLE_API_CALLED = '{"method":"Runtime.consoleAPICalled"';
/** A logged argument V8 describes as an error (from its `stack`). */
export const ERROR_ARGUMENT = '"subtype":"error"';
const EXCEPTION_ID = /"exceptionId":(\d+)/;
const TIMESTAMP = /"timestamp":(-?[\d.e+-]+)/;
const TYPE = /"type":"(\w+)"/;

/** More than V8's storage holds (1000 messages): older keys are of messages it dropped. */
const KEYS_KEPT = 4000;

export class ConsoleKeys {
  /** Keys of messages delivered that may still be in V8's storage. */
  #delivered = new Set<string>();
  /** Calls counted per type and timestamp in the current run from the storage's start. */
  #ranks = new Map<string, number>();

  /** The domain went off (a disable's answer arrived): the next replay runs from the storage's start. */
  replayStarts(): void {
    this.#ranks.clear();
  }

  /** The storage was emptied (the discard's answer arrived). */
  discarded(): void {
    this.#delivered.clear();
    this.#ranks.clear();
  }

  /** False for a message delivered already. */
  admit(raw: string): boolean {
    const key = this.#key(raw);
    if (key === undefined) return true;
    if (this.#delivered.has(key)) return false;
    this.#delivered.add(key);
    if (this.#delivered.size > KEYS_KEPT) this.#delivered.delete(this.#delivered.values().next().value!);
    return true;
  }

  #key(raw: string): string | undefined {
    if (!raw.startsWith(CONSOLE_API_CALLED)) {
      const id = EXCEPTION_ID.exec(raw)?.[1];
      return id === undefined ? undefined : `exception ${id}`;
    }
    const time = TIMESTAMP.exec(raw)?.[1];
    if (time === undefined) return undefined;
    const base = `${TYPE.exec(raw)?.[1]} ${time}`;
    const rank = (this.#ranks.get(base) ?? 0) + 1;
    this.#ranks.set(base, rank);
    return `${base} ${rank}`;
  }
}

interface RemoteObject {
  type?: string;
  subtype?: string;
  description?: string;
  objectId?: string;
  preview?: unknown;
}

export interface ReplayedCall {
  message: { params: { args: RemoteObject[] } };
  /** Arguments whose preview is fetched. */
  waiting: Set<number>;
  slot: Slot;
  /** Delivers the call as it is when its previews are late. */
  deadline?: ReturnType<typeof setTimeout>;
}

/**
 * The arguments of a replayed console call that Playwright would render from a
 * preview (a plain object or an array: other objects read as their description).
 */
function argumentsWantingPreview(message: { params?: { args?: RemoteObject[] } }): number[] {
  const out: number[] = [];
  (message.params?.args ?? []).forEach((arg, index) => {
    if (arg.type === 'object' && arg.objectId && !arg.preview && (arg.subtype === 'array' || (arg.subtype === undefined && arg.description === 'Object'))) out.push(index);
  });
  return out;
}

/** Delivers the call with what previews arrived; safe to call again. */
export function releaseCall(call: ReplayedCall): void {
  clearTimeout(call.deadline);
  call.waiting.clear();
  call.slot.fill(Buffer.from(JSON.stringify(call.message)));
}

/** A preview arrived (or failed: the argument stays as the replay described it). */
export function previewArrived(call: ReplayedCall, index: number, preview: unknown): void {
  const asked = askedOf.get(call);
  if (asked) asked.answeredAt = performance.now();
  if (preview) call.message.params.args[index]!.preview = preview;
  call.waiting.delete(index);
  if (!call.waiting.size) releaseCall(call);
}

// A replayed call waits for its previews while the page answers: once they
// are asked for, PREVIEW_DEADLINE_MS at most after the ask or the last answer
// to that write (a page busy from then on never answers). Counted from each
// call's own arrival instead, the replay's size alone (300 calls, each with an
// object and a 20 KB string) and then the answers before its own (one write
// asks for all of them) used up the wait: 137 of those 300 objects read
// "Object". The replay is one task of the renderer's, so its end comes;
// REPLAY_DEADLINE_MS is only a backstop until the previews are asked for.
const PREVIEW_DEADLINE_MS = 300;
const REPLAY_DEADLINE_MS = 3000;

function releaseWithin(call: ReplayedCall, ms: number): void {
  clearTimeout(call.deadline);
  call.deadline = setTimeout(() => releaseCall(call), ms);
  call.deadline.unref?.();
}

/** The calls one write asked previews for, and when the page last answered one. */
interface Asked {
  calls: readonly ReplayedCall[];
  answeredAt: number;
}

const askedOf = new WeakMap<ReplayedCall, Asked>();

function releaseWhenSilent(asked: Asked): void {
  const silent = performance.now() - asked.answeredAt;
  const waiting = asked.calls.filter((call) => call.waiting.size);
  if (!waiting.length) return;
  if (silent >= PREVIEW_DEADLINE_MS) for (const call of waiting) releaseCall(call);
  else setTimeout(() => releaseWhenSilent(asked), PREVIEW_DEADLINE_MS - silent).unref?.();
}

/** One write just asked for the previews of these calls. */
export function previewsAsked(calls: readonly ReplayedCall[]): void {
  const asked: Asked = { calls: calls.filter((call) => call.waiting.size), answeredAt: performance.now() };
  if (!asked.calls.length) return;
  for (const call of asked.calls) {
    clearTimeout(call.deadline);
    askedOf.set(call, asked);
  }
  setTimeout(() => releaseWhenSilent(asked), PREVIEW_DEADLINE_MS).unref?.();
}

/**
 * A message a sync replayed, on a session that keeps its console: null to
 * deliver it as it is, [] when it was delivered before (dropped) or holds its
 * place in the pipe until its arguments' previews arrive.
 */
export function replayedMessage(state: SessionState, start: string, raw: string, hold: () => Slot): string[] | null {
  const sync = state.sync;
  // What the storage holds (a first pass replays all of it): whether to empty it.
  if (sync?.pass === 1) sync.storage.count(start, raw);
  if (!state.keys.admit(raw)) return [];
  if (sync) sync.replayed = true;
  if (!sync || !start.startsWith(CONSOLE_API_CALLED)) return null;
  const message = JSON.parse(raw) as ReplayedCall['message'];
  const wanted = argumentsWantingPreview(message);
  if (!wanted.length) return null;
  const call: ReplayedCall = { message, waiting: new Set(wanted), slot: hold() };
  sync.calls.push(call);
  releaseWithin(call, REPLAY_DEADLINE_MS);
  return [];
}
