import type { BrowserContext, Page } from 'playwright-core';

// A page can open a window of the browser's own that holds the tab's mouse
// input: getDisplayMedia's screen-sharing picker, headless too, where nobody
// can answer it. Every later click then reports success and reaches nothing
// (the upstream the same); keys still reach the page, and a navigation closes
// the picker. The pointer's way to an element tells it (pointer.ts): the
// element under the pointer does not show it (:hover) once the moves are done.

const held = new WeakMap<BrowserContext, () => void>();

/** Counts, for the context's results, the clicks whose pointer the page did not get. */
export function watchHeldPointer(context: BrowserContext, onHeld: () => void): void {
  held.set(context, onHeld);
}

export function pointerHeld(page: Page): void {
  held.get(page.context())?.();
}

export const heldPointerNote = (count: number): string =>
  `Note: the pointer did not reach the page${count > 1 ? ` (${count} times)` : ''}: a window of the browser's own that the page opened (a screen-sharing picker, which nobody can answer here) holds the tab's mouse input, so clicks reach nothing while it is open; keys still reach the page. Navigating the tab closes it.`;
