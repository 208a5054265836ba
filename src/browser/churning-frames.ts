import type { BrowserContext } from 'playwright-core';
import { loadedCoreBundle } from '../playwright-bundles.ts';
import { serverObject, withFrameSelectors, type Impl } from './utility-world.ts';

// Playwright's snapshot reads each iframe through a selector that enters it
// (`aria-ref=eN >> internal:control=enter-frame >> body,frameset`) and tries
// again when a read fails (the frame's document was replaced while it was
// read), after 1, 2, 4, 8, 8... s, until the call's own timeout; then it
// leaves the frame out. A frame that navigates again and again (an iframe
// whose src a timer changes every 60 ms) failed read after read: every
// snapshot, the one in browser_navigate's result included, took 8 to 30 s
// (the upstream CLI alongside: 30 s and more, measured 2026-11-29). An
// unautomated browser shows the rest of the page meanwhile. Here a frame
// whose reads have failed for GIVE_UP_MS is left out at its next failure, as
// Playwright leaves it out at the timeout; the rest of the snapshot stands,
// and the session's next result says so.

const GIVE_UP_MS = 2500;
/** Failures further apart than Playwright's longest pause between tries (8 s) belong to another snapshot. */
const NEW_RUN_MS = 10_000;
const FRAME_ENTRY = /^aria-ref=\S+ >> internal:control=enter-frame >> body,frameset$/;

type Target = { selector: string };
type Failures = { first: number; last: number };

/** Per FrameSelectors (one per frame), the entry selectors whose reads are failing. */
const failing = new WeakMap<object, Map<string, Failures>>();
/** Per server-side context, what hears of a frame left out: the URL of the document the frame is in. */
const listeners = new WeakMap<object, (url: string) => void>();
let patched = false;

/** Whether this failed read ends the frame's tries: it has failed for GIVE_UP_MS. */
function failedRead(selectors: object, selector: string): boolean {
  const now = performance.now();
  let bySelector = failing.get(selectors);
  if (!bySelector) failing.set(selectors, (bySelector = new Map()));
  const seen = bySelector.get(selector);
  if (!seen || now - seen.last > NEW_RUN_MS) {
    bySelector.set(selector, { first: now, last: now });
    return false;
  }
  seen.last = now;
  if (now - seen.first < GIVE_UP_MS) return false;
  bySelector.delete(selector);
  return true;
}

function leaveOutChurning(selectorsProto: Impl): void {
  if (patched) return;
  patched = true;
  const { iso } = loadedCoreBundle() as { iso: { InvalidSelectorError: new (message: string) => Error } };
  const callOnSelector = selectorsProto.callOnSelector as (this: Impl, target: Target, ...rest: unknown[]) => Promise<unknown>;
  // An error Playwright does not retry ends the frame's read; its snapshot code catches it and leaves the frame out.
  const giveUp = (selectors: Impl) => {
    const frame = selectors.frame as Impl | undefined;
    listeners.get(frame?._page?.browserContext)?.(String(frame?.url?.() ?? ''));
    return new iso.InvalidSelectorError('the frame kept replacing its document while the snapshot read it; left out');
  };
  selectorsProto.callOnSelector = async function (this: Impl, target: Target, ...rest: unknown[]) {
    if (!FRAME_ENTRY.test(target?.selector ?? '')) return callOnSelector.call(this, target, ...rest);
    let result: unknown;
    try {
      result = await callOnSelector.call(this, target, ...rest);
    } catch (error) {
      if (this.frame?.isNonRetriableError?.(error) || !failedRead(this, target.selector)) throw error;
      throw giveUp(this);
    }
    if (result) failing.get(this)?.delete(target.selector);
    else if (failedRead(this, target.selector)) throw giveUp(this);
    return result;
  };
}

/**
 * Snapshots of this context's pages leave out a frame whose reads keep
 * failing after GIVE_UP_MS instead of trying until the call's timeout;
 * `leftOut` hears of each, with the URL of the document the frame is in.
 */
export function leaveOutChurningFrames(context: BrowserContext, leftOut: (url: string) => void): void {
  const server = serverObject(context);
  if (server) listeners.set(server, leftOut);
  if (!patched) withFrameSelectors(context, leaveOutChurning);
}
