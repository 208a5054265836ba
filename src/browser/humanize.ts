import type { BrowserContext, Locator, Page } from 'playwright-core';
import { callAsUpstream } from './upstream-call.ts';
import { withDeadline } from './deadline.ts';
import { boxInUtilityWorld } from './utility-world.ts';

// Humanised input for the upstream's tools: before a click, double-click,
// hover or drag the pointer travels to a point inside the element along a
// curved path with human timing; typing goes key by key with uneven delays.
// The upstream's tool results (the Playwright code it reports) do not change:
// only how the action reaches the page. Off with --humanize=false.

const enabled = new WeakSet<BrowserContext>();
const pointer = new WeakMap<Page, { x: number; y: number }>();
// Preparation steps never hold a tool: past this, the plain action runs.
const PREPARE_MS = 2000;
// Longer texts are filled at once: typing 1000 keys would take minutes.
const MAX_TYPED = 120;
// A line break typed is an Enter (a form submits, a chat sends), a tab moves the focus: fill puts them in the value.
const CONTROL = /[\u0000-\u001f\u007f]/;
// Typing starts with a click; a field the pointer cannot reach by then is filled as the upstream fills it.
const FOCUS_CHECK_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);

/** Points along a cubic Bézier from `from` to `to` with random control points. */
export function pointerPath(from: { x: number; y: number }, to: { x: number; y: number }): { x: number; y: number }[] {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const steps = Math.max(8, Math.min(40, Math.round(distance / 25)));
  const bend = () => between(-0.25, 0.25) * distance;
  const c1 = { x: from.x + (to.x - from.x) * 0.3 + bend(), y: from.y + (to.y - from.y) * 0.3 + bend() };
  const c2 = { x: from.x + (to.x - from.x) * 0.7 + bend(), y: from.y + (to.y - from.y) * 0.7 + bend() };
  const points = [];
  for (let i = 1; i <= steps; i++) {
    // Ease in and out: slow start, fast middle, slow landing.
    const t = 0.5 - Math.cos((Math.PI * i) / steps) / 2;
    const u = 1 - t;
    points.push({
      x: u * u * u * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * to.x,
      y: u * u * u * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * to.y,
    });
  }
  return points;
}

/** Moves the pointer to a point inside the element; returns that point relative to the element. */
async function approach(locator: Locator): Promise<{ x: number; y: number } | undefined> {
  const page = locator.page();
  if (!enabled.has(page.context())) return undefined;
  // Asked in Playwright's utility world: locator.boundingBox() would hand the element to the page's own world (utility-world.ts).
  const prepared = await withDeadline(boxInUtilityWorld(locator).catch(() => null), PREPARE_MS * 2);
  if (!prepared || prepared.width < 1 || prepared.height < 1) return undefined;
  const box = prepared;
  const target = { x: box.x + box.width * between(0.3, 0.7), y: box.y + box.height * between(0.3, 0.7) };
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  const from = pointer.get(page) ?? { x: between(0, viewport.width), y: between(viewport.height * 0.6, viewport.height) };
  for (const point of pointerPath(from, target)) {
    await page.mouse.move(point.x, point.y);
    await sleep(between(4, 14));
  }
  pointer.set(page, target);
  await sleep(between(40, 120));
  return { x: target.x - box.x, y: target.y - box.y };
}

interface SelectOption {
  value: string;
  label: string;
  disabled: boolean;
}

// Options read one by one (the page's own world is never asked); past this many, the plain action runs.
const MAX_OPTIONS = 100;
const collapse = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

async function optionsOf(select: Locator): Promise<SelectOption[] | undefined> {
  const all = select.locator('option');
  const count = await all.count();
  if (!count || count > MAX_OPTIONS) return undefined;
  const timeout = { timeout: PREPARE_MS };
  const options: SelectOption[] = [];
  for (let i = 0; i < count; i++) {
    const option = all.nth(i);
    const [value, label, text, disabled] = await Promise.all([option.getAttribute('value', timeout), option.getAttribute('label', timeout), option.textContent(timeout), option.isDisabled(timeout)]);
    options.push({ value: value ?? collapse(text), label: label ?? collapse(text), disabled });
  }
  return options;
}

/**
 * Chooses an option of a one-line <select> as a person does: a click opens its
 * list, arrow keys move to the option (skipping disabled ones, as the list
 * does), Enter takes it, so the page's input and change events are trusted.
 * (Playwright sets the option from script: events with isTrusted false.)
 * The selected value, or undefined when the plain action should run instead.
 */
async function selectLikeAPerson(select: Locator, wanted: { any?: string; label?: string }): Promise<string[] | undefined> {
  if ((await select.locator('xpath=self::select[not(@multiple)][not(@size) or @size <= 1]').count()) !== 1) return undefined;
  const options = await optionsOf(select);
  if (!options) return undefined;
  // Playwright's rule: the first option whose value or label matches (label only when asked by label).
  const target = options.findIndex((o) => (wanted.any !== undefined && (o.value === wanted.any || o.label === wanted.any)) || o.label === wanted.label);
  const value = await select.inputValue({ timeout: PREPARE_MS });
  const from = options.findIndex((o) => o.value === value);
  if (target < 0 || options[target]!.disabled || from < 0) return undefined;
  // The press lands where the pointer stopped, inside the select.
  if (!(await approach(select))) return undefined;
  const page = select.page();
  await page.mouse.down();
  await sleep(between(50, 120));
  await page.mouse.up();
  await sleep(between(150, 350));
  // A widget that keeps the select from taking focus (a custom dropdown) would get the keys on the page instead.
  const focused = await select.ariaSnapshot({ mode: 'ai', depth: 1, timeout: PREPARE_MS } as Parameters<Locator['ariaSnapshot']>[0]);
  if (!/^- combobox\b[^\n]*\[active\]/.test(focused)) return undefined;
  const passed = target > from ? options.slice(from + 1, target + 1) : options.slice(target, from);
  const key = target > from ? 'ArrowDown' : 'ArrowUp';
  for (let i = passed.filter((o) => !o.disabled).length; i > 0; i--) {
    await page.keyboard.press(key);
    await sleep(between(60, 180));
  }
  await page.keyboard.press('Enter');
  await sleep(between(30, 80));
  return (await select.inputValue({ timeout: PREPARE_MS })) === options[target]!.value ? [options[target]!.value] : undefined;
}

// Inputs whose value keys do not spell out (a date field's segments, a colour
// picker, a slider): Playwright's fill sets them, as the upstream's does.
const UNTYPED_INPUTS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range', 'file', 'checkbox', 'radio', 'hidden', 'submit', 'button', 'reset', 'image']);

async function takesKeys(field: Locator): Promise<boolean> {
  const type = await field.getAttribute('type', { timeout: PREPARE_MS }).catch(() => null);
  if (!type || !UNTYPED_INPUTS.has(type.trim().toLowerCase())) return true;
  return (await field.locator('xpath=self::input').count().catch(() => 0)) === 0;
}

type Proto = Record<string, (...args: any[]) => Promise<unknown>>;
let patched = false;

const nothing = async (): Promise<void> => {};

function patch(proto: Proto): void {
  if (patched) return;
  patched = true;
  const plainClick = proto.click!;
  // check and uncheck (fill_form's checkboxes and radios, through setChecked) click too.
  for (const method of ['click', 'dblclick', 'hover', 'check', 'uncheck'] as const) {
    const original = proto[method]!;
    proto[method] = function (this: Locator, options: Record<string, unknown> = {}) {
      const argv: unknown[] = [options];
      const before = async () => {
        const position = options.position ? undefined : await approach(this).catch(() => undefined);
        if (position) argv[0] = { ...options, position };
      };
      return callAsUpstream()(before, original, this, argv);
    };
  }
  const dragTo = proto.dragTo!;
  proto.dragTo = function (this: Locator, target: Locator, options: Record<string, unknown> = {}) {
    const argv: unknown[] = [target, options];
    const before = async () => {
      const source = await approach(this).catch(() => undefined);
      if (source) argv[1] = { ...options, sourcePosition: source };
    };
    return callAsUpstream()(before, dragTo, this, argv);
  };
  const selectOption = proto.selectOption!;
  proto.selectOption = function (this: Locator, values: unknown, options: Record<string, unknown> = {}) {
    const one = Array.isArray(values) && values.length === 1 ? values[0] : values;
    const wanted = typeof one === 'string' ? { any: one } : one && typeof one === 'object' && Object.keys(one).join() === 'label' ? { label: String((one as { label: unknown }).label) } : undefined;
    if (!wanted || !enabled.has(this.page().context())) return callAsUpstream()(nothing, selectOption, this, [values, options]);
    const before = async () => {
      const chosen = await withDeadline(selectLikeAPerson(this, wanted).catch(() => undefined), PREPARE_MS * 4);
      return chosen ? { result: chosen } : undefined;
    };
    return callAsUpstream()(before, selectOption, this, [values, options]);
  };
  const fill = proto.fill!;
  proto.fill = function (this: Locator, value: string, options: Record<string, unknown> = {}) {
    const page = this.page();
    if (!enabled.has(page.context()) || !value || value.length > MAX_TYPED || CONTROL.test(value)) return callAsUpstream()(nothing, fill, this, [value, options]);
    // Clear as fill would (its errors, a field that is not editable, are the upstream's), then type like a person.
    const argv: unknown[] = ['', options];
    let typed = true;
    const before = async () => {
      if (await takesKeys(this)) return;
      typed = false;
      argv[0] = value;
    };
    return callAsUpstream()(before, fill, this, argv, async () => {
      if (!typed) return;
      // Fill needs no pointer: a field under an overlay (a transparent layer, a label drawn over it) still takes the text from the upstream.
      if (!(await plainClick.call(this, { ...options, trial: true, timeout: FOCUS_CHECK_MS }).then(() => true, () => false))) return fill.call(this, value, options);
      await (proto.click as (this: Locator, o: Record<string, unknown>) => Promise<unknown>).call(this, options);
      for (const char of value) {
        await page.keyboard.type(char);
        await sleep(between(35, 140));
      }
      // A page that takes no key (it cancels every keydown) still gets the text, as the upstream's fill sets it.
      if ((await this.inputValue({ timeout: PREPARE_MS }).catch(() => undefined)) === '') await fill.call(this, value, options);
    });
  };
}

export function enableHumanize(context: BrowserContext): void {
  enabled.add(context);
  const attach = (page: Page) => patch(Object.getPrototypeOf(page.locator('html')) as Proto);
  const first = context.pages()[0];
  if (first) attach(first);
  else context.once('page', attach);
}
