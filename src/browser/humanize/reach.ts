import type { Locator } from 'playwright-core';
import { inUtilityWorld } from '../utility-world.ts';

// Unanswered this long (a page running a long task), it is left to the click, as any step of
// humanised input the page leaves unanswered for 1 s goes to Playwright's plain action.
const REACH_MS = 1000;

// A humanised action starts with a click (to focus a field, to tick a box)
// given a short deadline, after which Playwright's own action runs. A click no
// pointer can make (an element under an overlay, inert, outside an open modal
// dialog) only waited out that deadline: a covered field was filled 1 s later
// than by the upstream, an inert one or a covered box timed out 1 s later.
// Read in Playwright's utility world. An element not wholly in view is left
// to the click (it scrolls), as is one the pointer reaches at any of the
// points it would pick, or through an ancestor of it (a field behind a sticky
// header only in part is still clicked).
const UNREACHABLE = (element: Element) => {
  const modal = element.ownerDocument.querySelector('dialog:modal');
  if (element.closest('[inert]') || (modal && !modal.contains(element))) return 'true';
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0 || box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) return 'false';
  const root = element.getRootNode() as Document | ShadowRoot;
  // Playwright's hit check counts a hit anywhere in the button or link the element is part of (not its label).
  const pressed = element.closest('button, [role=button], a, [role=link]') ?? element;
  // The middle and the corners of the middle part, where the pointer's own point is picked (utility-world.ts).
  for (const [fx, fy] of [[0.5, 0.5], [0.3, 0.3], [0.7, 0.3], [0.3, 0.7], [0.7, 0.7]] as const) {
    const hit = root.elementFromPoint(box.left + box.width * fx, box.top + box.height * fy);
    if (!hit || pressed.contains(hit) || hit.contains(element)) return 'false';
  }
  return 'true';
};

/** True when no pointer can reach the element now; false when one can, or when that is unknown. */
export async function unreachable(target: Locator): Promise<boolean> {
  return (await inUtilityWorld<boolean>(target, UNREACHABLE, REACH_MS)) === true;
}
