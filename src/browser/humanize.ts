import type { BrowserContext, Locator, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';

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
  const prepared = await withDeadline(
    (async () => {
      await locator.scrollIntoViewIfNeeded({ timeout: PREPARE_MS });
      return locator.boundingBox({ timeout: PREPARE_MS });
    })().catch(() => null),
    PREPARE_MS * 2,
  );
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

type Proto = Record<string, (...args: any[]) => Promise<unknown>>;
let patched = false;

function patch(proto: Proto): void {
  if (patched) return;
  patched = true;
  for (const method of ['click', 'dblclick', 'hover'] as const) {
    const original = proto[method]!;
    proto[method] = async function (this: Locator, options: Record<string, unknown> = {}) {
      const position = options.position ? undefined : await approach(this).catch(() => undefined);
      return original.call(this, position ? { ...options, position } : options);
    };
  }
  const dragTo = proto.dragTo!;
  proto.dragTo = async function (this: Locator, target: Locator, options: Record<string, unknown> = {}) {
    const source = await approach(this).catch(() => undefined);
    return dragTo.call(this, target, source ? { ...options, sourcePosition: source } : options);
  };
  const fill = proto.fill!;
  proto.fill = async function (this: Locator, value: string, options: Record<string, unknown> = {}) {
    const page = this.page();
    if (!enabled.has(page.context()) || !value || value.length > MAX_TYPED) return fill.call(this, value, options);
    // Clear as fill would, then type like a person: focus by a click, uneven key delays.
    await fill.call(this, '', options);
    await (proto.click as (this: Locator, o: Record<string, unknown>) => Promise<unknown>).call(this, options);
    for (const char of value) {
      await page.keyboard.type(char);
      await sleep(between(35, 140));
    }
  };
}

export function enableHumanize(context: BrowserContext): void {
  enabled.add(context);
  const attach = (page: Page) => patch(Object.getPrototypeOf(page.locator('html')) as Proto);
  const first = context.pages()[0];
  if (first) attach(first);
  else context.once('page', attach);
}
