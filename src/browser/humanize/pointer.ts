import type { Locator, Page } from 'playwright-core';
import { boxInUtilityWorld, pathKeepingHover, SILENT, underPointer, type ElementBox } from '../utility-world.ts';
import { toolCallOf } from './cancelled-calls.ts';
import { inputStep, raisesDialogsOnInput, watchForDialog } from './dialog-watch.ts';
import { isHumanized } from './enabled.ts';
import { pointerHeld } from './held-pointer.ts';
import { pointInPage } from './frame-point.ts';
import { between, sleep, STALL_MS } from './timing.ts';
import { wheelIntoView } from './wheel.ts';
import { unrecorded } from '../unrecorded.ts';

// The pointer's way to an element: a curved path with human timing, on the
// pixel grid a mouse lands on (a fractional position at a device pixel ratio
// of 1 comes from no mouse; Playwright's element centre often is one).

const pointer = new WeakMap<Page, { x: number; y: number }>();
// The page's viewport as last measured (Playwright knows none without viewport emulation).
const viewports = new WeakMap<Page, Size>();
// Preparation steps never hold a tool: past this, the plain action runs.
export const PREPARE_MS = 2000;
// A normal way takes 0.3-0.8 s.
const FOLLOW_MS = 1500;

type Point = { x: number; y: number };
type Size = { width: number; height: number };

/** Where humanised input left the page's pointer (page coordinates); undefined before its first move. */
export const pointerAt = (page: Page): Point | undefined => pointer.get(page);
/** Records a move made outside approach() (a drag's way). */
export const pointerMovedTo = (page: Page, point: Point): void => void pointer.set(page, point);
/** The page's viewport as last measured, else Playwright's. */
export const viewportOf = (page: Page): Size => viewports.get(page) ?? page.viewportSize() ?? { width: 1280, height: 720 };

function curveBetween(from: Point, to: Point, bendRatio: number): Point[] {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const steps = Math.max(8, Math.min(40, Math.round(distance / 25)));
  const bend = () => between(-bendRatio, bendRatio) * distance;
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

// A pointer that leaves the viewport on its way fires the page's mouseout with
// no element to go to, which exit-intent popups wait for (a bend towards an
// element near the top went past it in 4 clicks of 18): a way that would
// leave bends less, down to a straight line, which stays in (both ends are in).
const EDGE = 1;
const BEND_TRIES = 4;
const within = (bounds: Size) => (p: Point) => p.x >= EDGE && p.y >= EDGE && p.x <= bounds.width - EDGE && p.y <= bounds.height - EDGE;

/**
 * Points along a cubic Bézier from `from` to `to` with random control points
 * (`bendRatio` 0: a straight line, eased), inside `bounds` (the viewport) when given.
 */
export function pointerPath(from: Point, to: Point, bendRatio = 0.25, bounds?: Size): Point[] {
  for (let ratio = bendRatio, tries = 0; ratio > 0 && tries < BEND_TRIES; ratio /= 2, tries++) {
    const points = curveBetween(from, to, ratio);
    if (!bounds || points.every(within(bounds))) return points;
  }
  return curveBetween(from, to, 0);
}

/** The point on the device pixel grid nearest to `point` (whole CSS pixels at a ratio of 1). */
export function onPixelGrid(point: Point, pixelRatio: number): Point {
  const ratio = pixelRatio > 0 ? pixelRatio : 1;
  return { x: Math.round(point.x * ratio) / ratio, y: Math.round(point.y * ratio) / ratio };
}

/**
 * The way to `target`: a curve; where the element is in a menu open while
 * the pointer is over it (a flyout beside its entry), a way that stays over
 * the menu, as a hand goes along it and then down (or down, then along);
 * none stays: one move, as Playwright moves. `origin`: where the element's
 * frame's viewport starts in the page's.
 */
async function pathTo(locator: Locator, box: ElementBox, from: Point, target: Point, origin: Point, bounds: Size): Promise<Point[]> {
  const grid = (point: Point) => onPixelGrid(point, box.pixelRatio);
  const curve = pointerPath(from, target, undefined, bounds).map(grid);
  // No ancestor under the pointer (the common case): nothing to keep open, no second question to the page.
  if (!box.hovered) return curve;
  const leg = (a: Point, b: Point) => pointerPath(a, b, 0);
  const via = (corner: Point) => [...leg(from, corner), ...leg(corner, target)].map(grid);
  const ways = [curve, via({ x: target.x, y: from.y }), via({ x: from.x, y: target.y })];
  const inFrame = ways.map((way) => way.map((p) => ({ x: p.x - origin.x, y: p.y - origin.y })));
  const kept = await pathKeepingHover(locator, inFrame, STALL_MS);
  return kept === null || kept < 0 ? [target] : ways[kept]!;
}

/**
 * Moves the pointer to a point inside the element; returns that point as
 * Playwright's click position (relative to the padding box). Undefined when
 * the plain action should run: or when the page opened a dialog on the way
 * (a wheel or mouseover handler's alert), which the caller checks.
 */
export async function approach(locator: Locator): Promise<Point | undefined> {
  const page = locator.page();
  if (!isHumanized(page) || raisesDialogsOnInput(page)) return undefined;
  // The way there is ours: the action that follows is what a trace records (unrecorded.ts).
  return unrecorded(page, () => way(locator, page));
}

async function way(locator: Locator, page: Page): Promise<Point | undefined> {
  const watch = watchForDialog(page);
  // A call cancelled on the way: the rest of it is the upstream's action, at once (cancelled-calls.ts).
  const call = toolCallOf(page);
  const move = async (point: Point) => !call?.aborted && (await inputStep(watch, () => page.mouse.move(point.x, point.y), STALL_MS)) === 'done';
  try {
    const viewport = viewportOf(page);
    const from = pointer.get(page) ?? onPixelGrid({ x: between(0, viewport.width), y: between(viewport.height * 0.6, viewport.height) }, 1);
    if (!pointer.has(page)) {
      // The pointer rests somewhere before it scrolls or travels.
      if (!(await move(from))) return undefined;
      pointer.set(page, from);
    }
    // Along the points, a move each with a human gap; where the pointer is, kept as it goes. False at a dialog or a stalled page.
    const follow = async (points: Point[]) => {
      const started = Date.now();
      for (const [i, point] of points.entries()) {
        const at = pointer.get(page) ?? from;
        if (point.x === at.x && point.y === at.y) continue;
        // A page slow to take each move (a heavy mousemove handler) gets the rest as one, as
        // Chromium coalesces a mouse's moves for a busy page: a click is not held up for seconds.
        if (Date.now() - started > FOLLOW_MS && i < points.length - 1) continue;
        if (!(await move(point))) return false;
        pointer.set(page, point);
        await sleep(between(4, 14));
      }
      return true;
    };
    // To wheel a frame that scrolls the element itself, the pointer goes over the frame first.
    const travel = (to: Point) => follow(pointerPath(pointer.get(page) ?? from, to, undefined, viewport).map((p) => onPixelGrid(p, 1)));
    await wheelIntoView(page, locator, PREPARE_MS * 2, watch, travel).catch(() => undefined);
    if (watch.open) return undefined;
    // Asked in Playwright's utility world: locator.boundingBox() would hand the element to the page's own world (utility-world.ts).
    const box = await boxInUtilityWorld(locator, STALL_MS);
    if (!box?.target) return undefined;
    // Inside a frame: the point where the frame shows it, on the page's pixel grid.
    const shown = await pointInPage(locator, box.target, box.framed, STALL_MS);
    if (!shown) return undefined;
    const bounds = shown.viewport ?? box.viewport;
    viewports.set(page, bounds);
    const origin = { x: shown.x - box.target.x, y: shown.y - box.target.y };
    const target = onPixelGrid(shown, box.pixelRatio);
    const before = pointer.get(page) ?? from;
    const stayed = before.x === target.x && before.y === target.y;
    if (!(await follow(await pathTo(locator, box, before, target, origin, bounds)))) return undefined;
    pointer.set(page, target);
    const inFrame = { x: target.x - origin.x, y: target.y - origin.y };
    // An element the page took away on the way (scrolled back, moved, jittering) gets
    // Playwright's own click, as the upstream's: a press held there would land elsewhere.
    const first = await underPointer(locator, inFrame, STALL_MS);
    if (first === SILENT || first?.onElement === false) return undefined;
    await sleep(between(40, 120));
    const under = await underPointer(locator, inFrame, STALL_MS);
    if (under === SILENT || under?.onElement === false) return undefined;
    // A pointer the page did not get (held-pointer.ts): the click goes on as the upstream's, with a note.
    // Only a move on this way tells: a pointer already at the point (the last click's, on a document
    // loaded under it since) shows no :hover until it moves, held or not.
    if (under?.shown === false && !stayed) pointerHeld(page);
    // Playwright truncates a click point to 1/100 px: a hair past the point keeps float error from landing it off the grid.
    const HAIR = 0.001;
    return { x: target.x - origin.x - box.x - (box.border.left || 0) + HAIR, y: target.y - origin.y - box.y - (box.border.top || 0) + HAIR };
  } finally {
    watch.dispose();
  }
}
