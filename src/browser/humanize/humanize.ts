import type { BrowserContext, Frame, Keyboard, Locator, Page } from 'playwright-core';
import { callAsUpstream } from '../upstream-call.ts';
import { withDeadline } from '../deadline.ts';
import { releasePointerLock } from '../pointer-lock.ts';
import { humanizeContext, isHumanized } from './enabled.ts';
import { checkLikeAPerson } from './check.ts';
import { dragLikeAPerson } from './drag.ts';
import { fillLikeAPerson, focusLikeAPerson } from './field.ts';
import { heldPress, keepPlainKeyboard, nothing, pageOf, typeLikeAPerson } from './keys.ts';
import { afterDialogOnTheWay, heldByDialog, raisesDialogsOnInput, untilDialog } from './dialog-watch.ts';
import { approach, PREPARE_MS } from './pointer.ts';
import { sharedTimeout } from './action-timeout.ts';
import { rememberNormalize, replacementFor } from './replaced-target.ts';
import { selectLikeAPerson } from './select.ts';
import { buttonHoldMs, keyHoldMs, STALL_MS, tapHoldMs } from './timing.ts';

// Humanised input for the upstream's tools: before a click, double-click,
// hover or drag the pointer travels to a point inside the element along a
// curved path with human timing, and a button stays down as a finger holds
// it; typing goes key by key with uneven delays, Shift held for capitals.
// The upstream's tool results (the Playwright code it reports) do not change:
// only how the action reaches the page. Off with --humanize=false.

// Longer texts are filled (or typed) at once: typing 1000 keys would take minutes.
const MAX_TYPED = 120;
// A line break typed is an Enter (a form submits, a chat sends), a tab moves the focus: fill puts them in the value.
const CONTROL = /[\u0000-\u001f\u007f]/;

// The methods whose press takes a `delay` (the button's hold); check and uncheck get theirs from check.ts.
const HOLDS = new Set(['click', 'dblclick']);

type Method = (...args: any[]) => Promise<unknown>;
type Proto = Record<string, Method>;
type Options = Record<string, unknown>;
let patched = false;

const frameOf = (locator: Locator): Frame => (locator as unknown as { _frame: Frame })._frame;
const typable = (text: unknown): text is string => typeof text === 'string' && text.length > 0 && text.length <= MAX_TYPED;

function patchLocator(proto: Proto): void {
  rememberNormalize(proto);
  // Our own clicks (a field's focus, a box's tick): their timeout bounds the press, not the upstream's call (action-timeout.ts).
  const ownClicks = new WeakSet<Options>();
  const click = (element: Locator, options: Options) => {
    const own = { ...options };
    ownClicks.add(own);
    return proto.click!.call(element, own);
  };
  for (const method of ['click', 'dblclick', 'hover', 'check', 'uncheck'] as const) {
    const original = proto[method]!;
    proto[method] = function (this: Locator, options: Options = {}) {
      const argv: unknown[] = [options];
      const before = async () => {
        // Under a page's pointer lock no click reaches its element, with a position or without.
        const lock = await releasePointerLock(this.page(), frameOf(this)).catch(() => 'none' as const);
        // A frame busy with a long task would hold each step of the way for it: the plain action, as the upstream's.
        if (options.position || lock === 'silent') return;
        // check and uncheck (fill_form's checkboxes and radios, through setChecked): a held click where the state changes.
        if ((method === 'check' || method === 'uncheck') && !options.trial && !options.force && isHumanized(this.page())) {
          const ticked = await checkLikeAPerson(this, method === 'check', click).catch(() => 'skipped' as const);
          if (ticked === 'done' || heldByDialog(this.page())) return { result: undefined };
          if (ticked === 'clicked') return;
        }
        const position = await approach(this).catch(() => undefined);
        // A dialog on the way (an element crossed alerts on mouseover, a wheel handler): in a click, Playwright's own once it is answered.
        if (heldByDialog(this.page())) return afterDialogOnTheWay(this.page());
        if (!position) return;
        // Playwright lets the button up in the same millisecond (check and uncheck take no delay).
        const replaced = await withDeadline(replacementFor(this).catch(() => undefined), STALL_MS);
        const hold = HOLDS.has(method) && options.delay === undefined ? { delay: replaced ? tapHoldMs() : buttonHoldMs() } : {};
        // The element that replaced the ref's is where the pointer is, not where the position was measured on the old one.
        argv[0] = replaced ? { ...options, ...hold } : { ...options, ...hold, position };
        if (replaced) return { self: replaced };
      };
      const timeout = sharedTimeout(before, argv, 0, ownClicks.has(options));
      return timeout.settle(callAsUpstream()(timeout.before, original, this, argv));
    };
  }
  const dragTo = proto.dragTo!;
  proto.dragTo = function (this: Locator, target: Locator, options: Options = {}) {
    const argv: unknown[] = [target, options];
    const before = async () => {
      const lock = await releasePointerLock(this.page(), frameOf(this)).catch(() => 'none' as const);
      if (lock === 'silent') return;
      const source = await approach(this).catch(() => undefined);
      if (heldByDialog(this.page())) return afterDialogOnTheWay(this.page());
      if (!source) return;
      // Pressed, held, carried along a curve and let go as a hand does (drag.ts); else Playwright's drag from the pointer's point.
      const own = options.trial || options.force || options.targetPosition || options.sourcePosition;
      if (!own && (await dragLikeAPerson(this, target).catch(() => false))) return { result: undefined };
      argv[1] = { ...options, sourcePosition: source };
    };
    const timeout = sharedTimeout(before, argv, 1);
    return timeout.settle(callAsUpstream()(timeout.before, dragTo, this, argv));
  };
  const selectOption = proto.selectOption!;
  proto.selectOption = function (this: Locator, values: unknown, options: Options = {}) {
    const one = Array.isArray(values) && values.length === 1 ? values[0] : values;
    const wanted = typeof one === 'string' ? { any: one } : one && typeof one === 'object' && Object.keys(one).join() === 'label' ? { label: String((one as { label: unknown }).label) } : undefined;
    if (!wanted || !isHumanized(this.page())) return callAsUpstream()(nothing, selectOption, this, [values, options]);
    const before = async () => {
      const chosen = await withDeadline(selectLikeAPerson(this, wanted).catch(() => undefined), PREPARE_MS * 4);
      return chosen ? { result: chosen } : heldByDialog(this.page()) ? { result: [] } : undefined;
    };
    const argv = [values, options];
    const timeout = sharedTimeout(before, argv, 1);
    return timeout.settle(callAsUpstream()(timeout.before, selectOption, this, argv));
  };
  const fill = proto.fill!;
  proto.fill = function (this: Locator, value: string, options: Options = {}) {
    if (!isHumanized(this.page()) || !typable(value) || CONTROL.test(value) || raisesDialogsOnInput(this.page())) return callAsUpstream()(nothing, fill, this, [value, options]);
    // Typed like a person, or else (a field the pointer cannot reach, one that takes no key) Playwright's fill, with the upstream's errors.
    const before = async () => ((await fillLikeAPerson(this, value, click).catch(() => false)) ? { result: undefined } : undefined);
    return callAsUpstream()(before, fill, this, [value, options]);
  };
  // browser_type's slowly: the focus by hand (or Playwright's, by an empty pressSequentially with its errors and waits), then keys a keyboard would send.
  const pressSequentially = proto.pressSequentially!;
  proto.pressSequentially = function (this: Locator, text: string, options: Options = {}) {
    if (!isHumanized(this.page()) || !typable(text) || options.delay !== undefined) return callAsUpstream()(nothing, pressSequentially, this, [text, options]);
    // Playwright's focus after ours finds the field focused: no event, the caret stays; in the
    // field that took the ref's place as it took the focus, if the page swapped it.
    const before = async () => {
      const focused = await focusLikeAPerson(this, click).catch(() => null);
      return focused && focused !== this ? { self: focused } : undefined;
    };
    return callAsUpstream()(before, pressSequentially, this, ['', options], () => typeLikeAPerson(this.page().keyboard, text).then(() => undefined));
  };
  // browser_type's submit: the Enter stays down a moment, in the field typed
  // in: one the page replaced while the keys went in (typing takes seconds
  // here, the upstream's fill milliseconds) is pressed in its replacement.
  const press = proto.press!;
  proto.press = function (this: Locator, key: string, options: Options = {}) {
    if (!isHumanized(this.page()) || options.delay !== undefined) return callAsUpstream()(nothing, press, this, [key, options]);
    const before = async () => {
      const replaced = await withDeadline(replacementFor(this).catch(() => undefined), STALL_MS);
      return replaced ? { self: replaced } : undefined;
    };
    return callAsUpstream()(before, press, this, [key, { ...options, delay: keyHoldMs() }]);
  };
}

function patchKeyboard(proto: Proto): void {
  keepPlainKeyboard(proto as unknown as Keyboard);
  // browser_press_key: the key stays down a moment. An Escape under a page's
  // pointer lock exits the lock, as the browser does with a person's Esc, and
  // reaches no page.
  const press = proto.press!;
  proto.press = function (this: Keyboard, key: string, options: Options = {}) {
    const run = callAsUpstream();
    const before = async () => (key === 'Escape' && (await releasePointerLock(pageOf(this)).catch(() => 'none')) === 'released' ? { result: undefined } : undefined);
    if (!isHumanized(pageOf(this)) || options.delay !== undefined) return untilDialog(pageOf(this), run(before, press, this, [key, options]));
    const held = (keyboard: Keyboard) => heldPress(keyboard, key, keyHoldMs(), run);
    return untilDialog(pageOf(this), run(before, held, this, [this]));
  };
  // browser_press_sequentially (page.keyboard.type): Shift for capitals, human holds and gaps.
  const type = proto.type!;
  proto.type = function (this: Keyboard, text: string, options: Options = {}) {
    if (!isHumanized(pageOf(this)) || !typable(text) || options.delay !== undefined) return untilDialog(pageOf(this), callAsUpstream()(nothing, type, this, [text, options]));
    return untilDialog(pageOf(this), callAsUpstream()(() => typeLikeAPerson(this, text).then(() => ({ result: undefined })), type, this, [text, options]));
  };
}

/** Humanised input for the context's pages (--humanize); off, its key presses still answer at a dialog (untilDialog). */
export function enableHumanize(context: BrowserContext, humanize = true): void {
  if (humanize) humanizeContext(context);
  const attach = (page: Page) => {
    if (patched) return;
    patched = true;
    patchLocator(Object.getPrototypeOf(page.locator('html')) as Proto);
    patchKeyboard(Object.getPrototypeOf(page.keyboard) as Proto);
  };
  const first = context.pages()[0];
  if (first) attach(first);
  else context.once('page', attach);
}
