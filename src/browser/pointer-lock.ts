import type { BrowserContext, Frame, Page } from 'playwright-core';
import { askInUtilityWorld, SILENT } from './utility-world.ts';

// A page that locks the pointer (requestPointerLock: games, 3D viewers, or a
// page out to trap a driver) gets every mouse event, wherever it is aimed:
// every later click on an element times out as "intercepted", on the
// upstream too, and an Escape sent over CDP does not unlock it, since it is
// the browser's own key handling that exits the lock. A person presses Esc
// to get the cursor back. So before an action aimed at an element, and for
// the agent's Escape, the lock is exited as Esc exits it: the page sees its
// pointerlockchange, and, as with a person's Esc, no key.

const CHECK_MS = 500;
const UNLOCK_MS = 1_000;

// Asked of each frame's document: a lock held in a frame takes the pointer
// over the whole page, and no other document's pointerLockElement shows it.
const EXIT_LOCK = (root: Element) => {
  const held = !!root.ownerDocument.pointerLockElement;
  if (held) root.ownerDocument.exitPointerLock();
  return JSON.stringify(held);
};

const LOCKED = (root: Element) => JSON.stringify(!!root.ownerDocument.pointerLockElement);

const released = new WeakMap<BrowserContext, () => void>();

/** Counts, for the context's results, the locks let go of. */
export function watchPointerLocks(context: BrowserContext, onRelease: () => void): void {
  released.set(context, onRelease);
}

/** What the page's frames answer `ask`: whether any holds a lock, and which gave no answer in time. */
async function lockHolders(page: Page, ask: typeof LOCKED): Promise<{ held: boolean; silent: Frame[] }> {
  const frames = page.frames();
  const answers = await Promise.all(frames.map((frame) => askInUtilityWorld<boolean>(frame.locator(':root'), ask, CHECK_MS)));
  return { held: answers.includes(true), silent: frames.filter((_, i) => answers[i] === SILENT) };
}

/**
 * What releasePointerLock found: a lock it let go of, none, or none known
 * because the frame asked about did not answer in time (its thread busy with
 * a long task): the action goes on as it would have.
 */
export type LockCheck = 'released' | 'none' | 'silent';

/**
 * Exits a pointer lock held by any frame of the page, then waits (up to 1 s)
 * until it is let go. 'silent' when `frame` (the action's; the main frame by
 * default) did not answer and no frame held a lock.
 */
export async function releasePointerLock(page: Page, frame: Frame = page.mainFrame()): Promise<LockCheck> {
  const first = await lockHolders(page, EXIT_LOCK);
  if (!first.held) return first.silent.includes(frame) ? 'silent' : 'none';
  const until = performance.now() + UNLOCK_MS;
  while (performance.now() < until && (await lockHolders(page, LOCKED)).held) await new Promise((resolve) => setTimeout(resolve, 20));
  released.get(page.context())?.();
  return 'released';
}

export const pointerLockNote = (count: number): string =>
  `Note: the page had locked the pointer (requestPointerLock), so it took every mouse event wherever aimed; the lock was exited first, as Esc exits it${count > 1 ? ` (${count} times)` : ''}.`;
