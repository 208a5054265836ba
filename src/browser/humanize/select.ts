import type { Locator } from 'playwright-core';
import { inUtilityWorld } from '../utility-world.ts';
import { inputStep, watchForDialog } from './dialog-watch.ts';
import { plainPress } from './keys.ts';
import { approach, PREPARE_MS } from './pointer.ts';
import { between, buttonHoldMs, keyHoldMs, sleep } from './timing.ts';
import { unrecorded } from '../unrecorded.ts';

interface SelectOption {
  value: string;
  label: string;
  /** Takes no key: disabled itself or in a disabled group, or left out of the list (hidden, display: none). */
  skipped: boolean;
}

// Read in Playwright's utility world: whether the select has the focus.
const HAS_FOCUS = (element: Element) => JSON.stringify((element.getRootNode() as Document | ShadowRoot).activeElement === element);

// Past this many options, the plain action runs.
const MAX_OPTIONS = 100;

// The options as the opened list has them, read in the utility world (the page's own prototypes
// and getters are not asked): value and label as Playwright matches them. The list leaves out a
// hidden option and its arrow keys pass over it: counted as a step, a key too many committed the
// option past the one asked for. A list past `max` is not read at all (null): a style each.
const OPTIONS = (element: Element, max: string) => {
  const options = [...(element as HTMLSelectElement).options];
  if (!options.length || options.length > Number(max)) return null;
  return JSON.stringify(
    options.map((o) => ({
      value: o.value,
      label: o.label,
      skipped: o.disabled || (o.parentElement instanceof HTMLOptGroupElement && o.parentElement.disabled) || o.hidden || getComputedStyle(o).display === 'none',
    })),
  );
};

async function optionsOf(select: Locator): Promise<SelectOption[] | undefined> {
  return (await inUtilityWorld<SelectOption[]>(select, OPTIONS, PREPARE_MS, MAX_OPTIONS)) ?? undefined;
}

/** The select's options, the one asked for and the one selected now; undefined when the plain action should run. */
async function planOf(select: Locator, wanted: { any?: string; label?: string }): Promise<{ options: SelectOption[]; target: number; from: number } | undefined> {
  const options = await optionsOf(select);
  if (!options) return undefined;
  // Playwright's rule: the first option whose value or label matches (label only when asked by label).
  const target = options.findIndex((o) => (wanted.any !== undefined && (o.value === wanted.any || o.label === wanted.any)) || o.label === wanted.label);
  const value = await unrecorded(select.page(), () => select.inputValue({ timeout: PREPARE_MS }));
  const from = options.findIndex((o) => o.value === value);
  if (target < 0 || options[target]!.skipped || from < 0) return undefined;
  return { options, target, from };
}

/**
 * Chooses an option of a one-line <select> as a person does: a click opens its
 * list, arrow keys move to the option (passing over those the list leaves out
 * or disables), Enter takes it, so the page's input and change events are trusted.
 * (Playwright sets the option from script: events with isTrusted false.)
 * The selected value, or undefined when the plain action should run instead.
 */
export async function selectLikeAPerson(select: Locator, wanted: { any?: string; label?: string }): Promise<string[] | undefined> {
  if ((await unrecorded(select.page(), () => select.locator('xpath=self::select[not(@multiple)][not(@size) or @size <= 1]').count())) !== 1) return undefined;
  if (!(await planOf(select, wanted))) return undefined;
  // The press lands where the pointer stopped, inside the select.
  if (!(await approach(select))) return undefined;
  const page = select.page();
  const watch = watchForDialog(page);
  // A dialog from the page's handlers (or an event it does not take) ends it here; the caller checks which.
  const step = async (work: () => Promise<unknown>) => (await inputStep(watch, work)) === 'done';
  try {
    if (!(await step(() => page.mouse.down()))) return undefined;
    await sleep(buttonHoldMs());
    if (!(await step(() => page.mouse.up()))) return undefined;
    await sleep(between(150, 350));
    // A widget that keeps the select from taking focus (a custom dropdown) would get the keys on the page instead.
    // Asked in the utility world: an 'ai' aria snapshot of the select would replace the refs of the agent's last snapshot.
    if ((await inUtilityWorld<boolean>(select, HAS_FOCUS, PREPARE_MS)) !== true) return undefined;
    // The keys count on the list as it is now: a page may fill or replace it as the select takes
    // focus (options loaded on demand). Counted on the list read before the click, they committed
    // whatever option stood there. Without the wanted option now, Escape closes the list unchanged.
    const plan = await planOf(select, wanted);
    if (!plan) {
      await step(() => plainPress(page.keyboard, 'Escape', { delay: keyHoldMs() }));
      return undefined;
    }
    const { options, target, from } = plan;
    const passed = target > from ? options.slice(from + 1, target + 1) : options.slice(target, from);
    const key = target > from ? 'ArrowDown' : 'ArrowUp';
    for (let i = passed.filter((o) => !o.skipped).length; i > 0; i--) {
      if (!(await step(() => plainPress(page.keyboard, key, { delay: keyHoldMs() })))) return undefined;
      await sleep(between(60, 180));
    }
    if (!(await step(() => plainPress(page.keyboard, 'Enter', { delay: keyHoldMs() })))) return undefined;
    await sleep(between(30, 80));
    return (await unrecorded(select.page(), () => select.inputValue({ timeout: PREPARE_MS }))) === options[target]!.value ? [options[target]!.value] : undefined;
  } finally {
    watch.dispose();
  }
}
