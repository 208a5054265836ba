import type { Locator } from 'playwright-core';
import { withDeadline } from '../deadline.ts';
import { askInUtilityWorld, inUtilityWorld, SILENT } from '../utility-world.ts';
import { toolCallOf } from './cancelled-calls.ts';
import { inputStep, watchForDialog } from './dialog-watch.ts';
import { plainPress, typeLikeAPerson } from './keys.ts';
import { PREPARE_MS } from './pointer.ts';
import { unreachable } from './reach.ts';
import { replacementFor } from './replaced-target.ts';
import { between, keyHoldMs, sleep, STALL_MS } from './timing.ts';

// A text typed into a field as a person types it: a click puts the focus
// there (a focus the page sees come from the pointer; Playwright's fill calls
// element.focus(), whose focus events carry no sourceCapabilities), the old
// text goes by select-all and Backspace, then the keys. Whenever a step
// cannot be done as a person would, the caller runs Playwright's own fill,
// which also gives the upstream's errors and waits.

// Typing starts with a click; a field the pointer cannot reach by then is filled as the upstream fills it
// (a loaded machine can take half a second for the click's checks alone).
const FOCUS_CHECK_MS = 1000;

interface FieldState {
  typed: boolean;
  /** A read-only text field, which a page may make editable as it takes the focus (a guard against autofill): a person clicks it and types. */
  unlocks: boolean;
  /** An input whose value keys do not spell out (a date field's segments, a colour picker, a slider): Playwright's fill sets it, as the upstream's does. */
  untyped: boolean;
  /** A number field: Playwright's fill refuses a text that is not a number at once, before any focus (the upstream's error). */
  number: boolean;
  input: boolean;
  focused: boolean;
  value: string;
}

// Read in Playwright's utility world (one round trip; hence the list inline): whether keys spell the field's value, whether it has the focus, its text.
const FIELD_STATE = (element: Element) => {
  const UNTYPED_INPUTS = ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range', 'file', 'checkbox', 'radio', 'hidden', 'submit', 'button', 'reset', 'image'];
  const field = element as HTMLInputElement;
  const tag = element.nodeName;
  const text = tag === 'INPUT' || tag === 'TEXTAREA';
  const editable = !text && (element as HTMLElement).isContentEditable;
  const locked = text ? field.disabled || field.readOnly : !editable;
  const root = element.getRootNode() as Document | ShadowRoot;
  const focused = (root.activeElement ?? document.activeElement) === element || (editable && element.contains(document.activeElement));
  const value = text ? field.value : (element.textContent ?? '');
  const type = tag === 'INPUT' ? (field.getAttribute('type') ?? '').trim().toLowerCase() : '';
  const untyped = UNTYPED_INPUTS.includes(type);
  return JSON.stringify({ typed: (text || editable) && !locked, unlocks: text && field.readOnly && !field.disabled, untyped, number: type === 'number', input: tag === 'INPUT', focused, value });
};

const fieldState = (field: Locator) => inUtilityWorld<FieldState>(field, FIELD_STATE, PREPARE_MS);

/**
 * The field as a click or keys left it: 'gone' when its element is no longer
 * there (a page that re-renders a field as it takes the focus or is typed in,
 * replacing the element and handing the focus to the new one: the keys go
 * where the focus is, as a person's would, and Playwright's fill would wait
 * for an element that is gone until its timeout); null when the page gave no
 * answer.
 */
async function fieldOrGone(field: Locator): Promise<FieldState | 'gone' | null> {
  const state = await askInUtilityWorld<FieldState>(field, FIELD_STATE, PREPARE_MS);
  return state === SILENT ? null : (state ?? 'gone');
}

type Click = (field: Locator, options: { timeout: number }) => Promise<unknown>;

interface Focused {
  state: FieldState;
  /** The field the keys go to: the ref's own, or the one the page put in its place as it took the focus. */
  field: Locator;
}

/** Clicks the field (the humanised click); the field that has the focus then, if it is this one. */
async function focusByClick(field: Locator, click: Click): Promise<Focused | null> {
  if (!(await click(field, { timeout: FOCUS_CHECK_MS }).then(() => true, () => false))) return null;
  const clicked = await fieldOrGone(field);
  if (clicked === null) return null;
  // A click that moved the focus elsewhere (a label, a widget) would send the keys there.
  if (clicked !== 'gone') return clicked.focused ? { state: clicked, field } : null;
  // Gone: a page that swaps the field for a new one as it takes the focus (a component re-rendered
  // on focus). A person types into what has the focus; Playwright's fill, run instead, would wait
  // for the element that is gone until its timeout (the upstream's fill focuses it by script and
  // inserts the text at once, into the new one).
  const replaced = await withDeadline(replacementFor(field).catch(() => undefined), STALL_MS);
  const state = replaced && (await fieldState(replaced));
  return replaced && state?.focused && state.typed ? { state, field: replaced } : null;
}

/**
 * Types `value` into the field like a person; true when it holds the text
 * then, or when the page opened a dialog on the way (the tool answers with
 * it); false when Playwright's fill should run instead. `click` is the
 * humanised click.
 */
export async function fillLikeAPerson(field: Locator, value: string, click: Click): Promise<boolean> {
  // The call this fill is for: the client may cancel it and send the next one while the field is clicked.
  const call = toolCallOf(field.page());
  const before = await fieldState(field);
  // Not a number for a number field: Playwright's fill throws the upstream's error before touching it; a click first would only delay that.
  const notANumber = before?.number && Number.isNaN(Number(value.trim()));
  if (!before || !(before.typed || before.unlocks) || before.untyped || notANumber || (await unreachable(field))) return false;
  const watch = watchForDialog(field.page());
  try {
    // A focus handler's alert holds the click.
    const focused = await focusByClick(field, click);
    if (watch.open) return true;
    // Still read-only after the click: Playwright's fill waits for it to become editable, with the upstream's error.
    if (!focused?.state.typed) return false;
    const { state: clicked, field: target } = focused;
    const keyboard = field.page().keyboard;
    if (clicked.value) {
      await sleep(between(80, 200));
      const all = await inputStep(watch, () => plainPress(keyboard, 'ControlOrMeta+a', { delay: keyHoldMs() }));
      if (all !== 'done') return all === 'dialog';
      await sleep(between(60, 160));
      const cleared = await inputStep(watch, () => plainPress(keyboard, 'Backspace', { delay: keyHoldMs() }));
      if (cleared !== 'done') return cleared === 'dialog';
      const emptied = await fieldOrGone(target);
      if (emptied !== 'gone' && emptied?.value !== '') return false;
    }
    await sleep(between(60, 180));
    const typed = await typeLikeAPerson(keyboard, value, watch, call);
    if (typed !== 'typed') return typed === 'dialog';
    // A page that takes no key (it cancels every keydown) still gets the text, as the upstream's fill sets it.
    const after = await fieldOrGone(target);
    return after === 'gone' || !!after?.value;
  } finally {
    watch.dispose();
  }
}

/**
 * Puts the focus where Playwright's pressSequentially puts it, by hand: a
 * field that has the focus keeps it and its caret; another is clicked, and an
 * input's caret goes to the start with Home (Playwright resets an input's
 * selection to its start). The field that has the focus then (the one the
 * page put in the ref's place as it took the focus, if it did); null when
 * Playwright's own focus should run instead (a textarea or an editable
 * element with text, whose caret a click would move, a field the pointer
 * cannot reach, a date, time, colour or range input).
 */
export async function focusLikeAPerson(field: Locator, click: Click): Promise<Locator | null> {
  const before = await fieldState(field);
  // A date or time field's click focuses the segment under the pointer, a slider's moves its thumb (and Home then sets its minimum): Playwright's focus, as the upstream's, puts the keys where it does.
  if (!before?.typed || before.untyped) return null;
  if (before.focused) return field;
  if ((before.value && !before.input) || (await unreachable(field))) return null;
  const focused = await focusByClick(field, click);
  if (!focused) return null;
  if (before.value) {
    await sleep(between(80, 200));
    await plainPress(field.page().keyboard, 'Home', { delay: keyHoldMs() });
  }
  await sleep(between(60, 180));
  return focused.field;
}
