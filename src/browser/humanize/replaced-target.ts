import type { Locator } from 'playwright-core';
import { unrecorded } from '../unrecorded.ts';

// The upstream finds a ref's element by `aria-ref=eN`, which names one
// element: once the page replaces it (a list re-rendered, a component
// swapped by a framework), the ref waits for that element until the action
// times out. Its own click is over in ~50 ms, so on a page that re-renders
// every few hundred ms it mostly lands; ours first moves the pointer there
// for half a second or more, and the element it set out for is gone more
// often than not. A person clicks what is there: when the ref's element went
// during the approach, the press goes to the one element the ref's own
// locator now finds (the upstream reads it with normalize() before acting,
// and reports the action under it), or, with none or several, to the ref as
// before.

const normalized = new WeakMap<Locator, Locator>();

/** Keeps what the upstream's `normalize()` of a ref's locator answered (the element's role and name). */
export function rememberNormalize(proto: Record<string, (...args: any[]) => Promise<unknown>>): void {
  const normalize = proto.normalize!;
  proto.normalize = async function (this: Locator, ...args: unknown[]) {
    const found = (await normalize.apply(this, args)) as Locator;
    normalized.set(this, found);
    return found;
  };
}

/** After the pointer's approach: the locator to act on when the ref's element is gone and its own locator finds one other; undefined to act on the ref. */
export function replacementFor(ref: Locator): Promise<Locator | undefined> {
  // Our counts, not the upstream's: left out of a trace the user records.
  return unrecorded(ref.page(), async () => {
    const stand = normalized.get(ref);
    if (!stand || (await ref.count()) > 0) return undefined;
    return (await stand.count()) === 1 ? stand : undefined;
  });
}
