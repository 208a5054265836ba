import type { Locator } from 'playwright-core';
import { inUtilityWorld } from '../utility-world.ts';
import { PREPARE_MS } from './pointer.ts';

// A humanised action starts with a click (to focus a field, to tick a box)
// given a short deadline, after which Playwright's own action runs. A click no
// pointer can make (an element under an overlay, inert, outside an open modal
// dialog) only waited out that deadline: a covered field was filled 1 s later
// than by the upstream, an inert one or a covered box timed out 1 s later.
// Read in Playwright's utility world. An element out of view is left to the
// click (it scrolls), as is one whose centre the pointer reaches through an
// ancestor of it.
const UNREACHABLE = (element: Element) => {
  const modal = element.ownerDocument.querySelector('dialog:modal');
  if (element.closest('[inert]') || (modal && !modal.contains(element))) return 'true';
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  if (box.width === 0 || box.height === 0 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 'false';
  const hit = (element.getRootNode() as Document | ShadowRoot).elementFromPoint(x, y);
  // Playwright's hit check counts a hit anywhere in the button or link the element is part of (not its label).
  const pressed = element.closest('button, [role=button], a, [role=link]') ?? element;
  return JSON.stringify(!!hit && !pressed.contains(hit) && !hit.contains(element));
};

/** True when no pointer can reach the element now; false when one can, or when that is unknown. */
export async function unreachable(target: Locator): Promise<boolean> {
  return (await inUtilityWorld<boolean>(target, UNREACHABLE, PREPARE_MS)) === true;
}
