import type { Locator } from 'playwright-core';
import { inUtilityWorld } from '../utility-world.ts';
import { inputStep, watchForDialog } from './dialog-watch.ts';
import { onPixelGrid, pointerAt, pointerMovedTo, pointerPath, viewportOf } from './pointer.ts';
import { between, sleep, STALL_MS } from './timing.ts';

// A drag as a hand makes it: pressed on the source (the pointer brought there
// by approach()), held a moment, carried along a curve in many moves, let go
// over the target. Playwright's dragTo presses and moves to the target in the
// same millisecond, in one move: a sortable that starts a drag only after a
// press held for a moment (dnd-kit's delay constraint, SortableJS's `delay`,
// 150-300 ms) takes that as a press that moved, and drops nothing; a slider
// check that reads the way the pointer went finds none. HTML5 drag and drop
// goes through Playwright's drag handling as before (the moves are its
// mouse's). Only a target wholly in view in the page's own frame is dragged
// to so: otherwise (one to scroll to, one inside a frame) Playwright's
// dragTo runs, as the upstream's.

/** A press this long before the hand moves: above the 250 ms a sortable's hold-to-drag commonly asks. */
const HOLD_MS = [300, 450] as const;
/** How much longer a press the page is slow to take (a long task in its pointerdown handler) is waited for. */
const PRESS_WAIT_MS = 2000;

// Read in Playwright's utility world: a point inside the target where a hit test finds it, or null.
const DROP_POINT = (element: Element) => {
  if (window !== window.top) return 'null';
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0 || box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) return 'null';
  const root = element.getRootNode() as Document | ShadowRoot;
  for (const [fx, fy] of [[0.5, 0.5], [0.4, 0.4], [0.6, 0.6], [0.4, 0.6], [0.6, 0.4]] as const) {
    const x = box.left + box.width * fx;
    const y = box.top + box.height * fy;
    const hit = root.elementFromPoint(x, y);
    if (hit && element.contains(hit)) return JSON.stringify({ x, y, ratio: devicePixelRatio > 0 ? devicePixelRatio : 1 });
  }
  return 'null';
};

/**
 * Drags from where approach() left the pointer (on `source`) to `target` as a
 * hand does; false when Playwright's dragTo should run instead (nothing was
 * pressed), true when the drag was made, or ended by a dialog the page opened
 * on the way (the tool answers with it).
 */
export async function dragLikeAPerson(source: Locator, target: Locator): Promise<boolean> {
  const page = source.page();
  const from = pointerAt(page);
  const drop = from && (await inUtilityWorld<{ x: number; y: number; ratio: number }>(target, DROP_POINT, STALL_MS));
  if (!from || !drop) return false;
  const watch = watchForDialog(page);
  // The input the page has not taken yet: a dialog holds it until it is answered (Chromium drops
  // input sent meanwhile), so the release goes after it, without the call waiting: the page then
  // gets its button up where the hand stopped, as after the upstream's drag.
  let pending: Promise<unknown> = Promise.resolve();
  const step = (work: () => Promise<unknown>) => inputStep(watch, () => (pending = work()), STALL_MS);
  const release = () => void pending.catch(() => {}).then(() => page.mouse.up()).catch(() => {});
  try {
    if (watch.open) return true;
    let pressed = await step(() => page.mouse.down());
    // A press the page takes late is still the drag's: released where it was pressed, it would be a click on the source.
    if (pressed === 'stalled') pressed = await inputStep(watch, () => pending, PRESS_WAIT_MS);
    if (pressed !== 'done') {
      release();
      // A page that did not take the press (busy for seconds): Playwright's drag, as the upstream's, after the release.
      return pressed === 'dialog';
    }
    await sleep(between(...HOLD_MS));
    const to = onPixelGrid(drop, drop.ratio);
    for (const point of pointerPath(from, to, undefined, viewportOf(page)).map((p) => onPixelGrid(p, drop.ratio))) {
      // Let go where the hand is: a dialog or a page that stopped taking moves ends the way there.
      if ((await step(() => page.mouse.move(point.x, point.y))) !== 'done') break;
      pointerMovedTo(page, point);
      await sleep(between(8, 20));
    }
    if (watch.open) release();
    else {
      await sleep(between(60, 160));
      await step(() => page.mouse.up());
    }
    return true;
  } finally {
    watch.dispose();
  }
}
