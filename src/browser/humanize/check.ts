import type { Locator } from 'playwright-core';
import { inUtilityWorld } from '../utility-world.ts';
import { PREPARE_MS } from './pointer.ts';
import { unreachable } from './reach.ts';

// A checkbox or radio ticked by hand: the humanised click (path, button held
// down) where its state needs changing. Playwright's check clicks through its
// own protocol call, which takes no press duration (the button goes up in the
// same millisecond). Playwright's check still answers where this cannot: a
// box already in the wanted state, a label, an element whose state is unknown.

const CLICK_MS = 1000;

// Read in Playwright's utility world: a native box's checked, an ARIA one's aria-checked; null for anything else.
const CHECKED = (element: Element) => {
  const input = element as HTMLInputElement;
  if (element.nodeName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) return JSON.stringify(input.disabled ? null : { checked: input.checked, radio: input.type === 'radio' });
  const role = element.getAttribute('role');
  if (role && /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role) && element.getAttribute('aria-disabled') !== 'true') return JSON.stringify({ checked: element.getAttribute('aria-checked') === 'true', radio: /radio/.test(role) });
  return JSON.stringify(null);
};

const stateOf = (box: Locator) => inUtilityWorld<{ checked: boolean; radio: boolean }>(box, CHECKED, PREPARE_MS);

/**
 * 'done' when the box was clicked into the wanted state; 'clicked' when a
 * click went out but the state is not as wanted (Playwright's check decides
 * then, without a second approach); 'skipped' when nothing was done.
 */
export async function checkLikeAPerson(box: Locator, wanted: boolean, click: (box: Locator, options: { timeout: number }) => Promise<unknown>): Promise<'done' | 'clicked' | 'skipped'> {
  const before = await stateOf(box);
  // Unchecking a radio is Playwright's error, given before any click.
  if (!before || before.checked === wanted || (before.radio && !wanted) || (await unreachable(box))) return 'skipped';
  if (!(await click(box, { timeout: CLICK_MS }).then(() => true, () => false))) return 'skipped';
  return (await stateOf(box))?.checked === wanted ? 'done' : 'clicked';
}
