import type { BrowserContext, Page } from 'playwright-core';

// A page can open a window of the browser's own that holds the tab's mouse
// input, headless too, where nobody can answer it: getDisplayMedia's
// screen-sharing picker (keys still reach the page), or the sign-in prompt of
// a request the page made that asked for HTTP authentication (keys held too;
// answering it from DevTools would mean intercepting every request, which the
// upstream does not do either). Every later click then reports success and
// reaches nothing (the upstream the same); a navigation closes either. The
// pointer's way to an element tells it (pointer.ts): the element under the
// pointer does not show it (:hover) once the moves are done.

const held = new WeakMap<BrowserContext, () => void>();

/** Counts, for the context's results, the clicks whose pointer the page did not get. */
export function watchHeldPointer(context: BrowserContext, onHeld: () => void): void {
  held.set(context, onHeld);
}

export function pointerHeld(page: Page): void {
  held.get(page.context())?.();
}

export const heldPointerNote = (count: number): string =>
  `Note: the pointer did not reach the page${count > 1 ? ` (${count} times)` : ''}: a window of the browser's own that the page opened holds the tab's input, and nobody can answer it here: a screen-sharing picker (keys still reach the page) or the sign-in prompt of a request that asked for HTTP authentication (keys are held too). Clicks reach nothing while it is open; navigating the tab closes it.`;
