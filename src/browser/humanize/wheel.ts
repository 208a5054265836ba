import type { Locator, Page } from 'playwright-core';
import { withDeadline } from '../deadline.ts';
import { inUtilityWorld } from '../utility-world.ts';
import { carryToMainFrame, evaluateOnOwner, pointInPage } from './frame-point.ts';
import { inputStep, type DialogWatch } from './dialog-watch.ts';
import { between, sleep, STALL_MS } from './timing.ts';

// An element below (or above) the fold is brought into view by the mouse
// wheel, as a person scrolls: notches of 120 px, each a trusted wheel event
// (Chromium scrolls a CDP notch at once, not animated). Playwright scrolls by script (one
// jump, scroll events with no wheel before them). Only where the document
// itself scrolls to the element; for an element in a frame (a captcha's
// checkbox, a payment field), the page until the iframe shows the frame's
// part that holds it, then the frame's own document with the pointer over
// it. Elsewhere (a nested scroller, a fixed element, a wheel the page keeps,
// a document that snaps its scroll) the caller's programmatic scroll does it.

const NOTCH = 120;
// About 3600 px of scrolling; past that the rest is scrolled by script.
const MAX_NOTCHES = 30;
const SETTLE_MS = 1500;
// Every this many notches of a flick, a look at how far the element came; under this share of the
// notches' way (one notch in the last four may still be on its way), the page is keeping the scroll.
const PEEK_EVERY = 4;
const FOUGHT = 0.5;

interface Placement {
  top: number;
  height: number;
  viewport: number;
  documentScrolls: boolean;
}

type Band = { top: number; height: number };
type Point = { x: number; y: number };

// Read in Playwright's utility world: where the element is against the
// viewport, and whether only the document scrolls it. Given `band` (a part of
// a frame's viewport, on the iframe that shows the frame), where that part
// is. In a frame, and given none: the element's band in its frame's viewport
// (the whole viewport when it is outside it: the frame's own scrolling does
// the rest), for the frames above to carry to the page, and its placement in
// its frame (`own`).
const PLACEMENT = (element: Element, arg: string) => {
  const band = arg ? (JSON.parse(arg) as { top: number; height: number }) : null;
  const box = element.getBoundingClientRect();
  let documentScrolls = true;
  for (let parent = element.parentElement; parent && parent !== document.body && parent !== document.documentElement; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.position === 'fixed' || (/(auto|scroll|overlay)/.test(style.overflowY) && parent.scrollHeight > parent.clientHeight)) documentScrolls = false;
  }
  const style = getComputedStyle(element);
  if (style.position === 'fixed') documentScrolls = false;
  // A document that snaps its scroll: Chromium snaps each notch of a CDP wheel (precise pixels)
  // back to the nearest point, where a mouse's notch goes on to the next; the page would see its
  // scroll go forth and back for dozens of notches. The script scrolls it, as the upstream's.
  if (getComputedStyle(document.documentElement).scrollSnapType !== 'none') documentScrolls = false;
  if (!band && window !== window.top) {
    const shows = box.bottom > 0 && box.top < innerHeight;
    const own = { top: box.top, height: box.height, viewport: innerHeight, width: innerWidth, documentScrolls };
    return JSON.stringify({ framed: true, top: shows ? box.top : 0, height: shows ? box.height : innerHeight, own });
  }
  const top = band ? box.top + element.clientTop + (parseFloat(style.paddingTop) || 0) + band.top : box.top;
  return JSON.stringify({ top, height: band ? band.height : box.height, viewport: innerHeight, documentScrolls });
};

// On an iframe inside a frame: where `band` of its frame's viewport is in
// the viewport of the frame around it (that frame's whole viewport when it is
// outside it). A scaled or turned iframe maps no band by an offset: null.
const OWNER_BAND = (owner: Element, arg: string) => {
  const band = JSON.parse(arg) as { top: number; height: number };
  const frame = owner as HTMLElement;
  const rect = frame.getBoundingClientRect();
  if (Math.abs(rect.height - frame.offsetHeight) > 0.5) return null;
  const top = rect.top + frame.clientTop + (parseFloat(getComputedStyle(frame).paddingTop) || 0) + band.top;
  const shows = top + band.height > 0 && top < innerHeight;
  return JSON.stringify(shows ? { top, height: band.height } : { top: 0, height: innerHeight });
};

type Framed = Band & { framed: true; own: Placement & { width: number } };

/** The element's placement in the page: in a frame, the band it shows in carried up the frames to the iframe of the page's. */
async function placement(locator: Locator): Promise<Placement | null> {
  const own = await inUtilityWorld<Placement | Framed>(locator, PLACEMENT, STALL_MS);
  if (!own || !('framed' in own)) return own;
  const band: Band = { top: own.top, height: own.height };
  const carried = carryToMainFrame<Band | Placement>(locator, band, (owner, inner, toMain) => evaluateOnOwner(owner, toMain ? PLACEMENT : OWNER_BAND, inner));
  return ((await withDeadline(carried.catch(() => null), STALL_MS)) as Placement | null | undefined) ?? null;
}

/** An element in a frame: its placement in its frame's viewport; null for one of the main frame. */
async function placementInFrame(locator: Locator): Promise<(Placement & { width: number }) | null> {
  const own = await inUtilityWorld<Placement | Framed>(locator, PLACEMENT, STALL_MS);
  return own && 'framed' in own ? own.own : null;
}

// As Chromium's scroll-into-view-if-needed, which Playwright's actions run:
// an element wholly inside the viewport, or one that covers it top to bottom
// (a map, a canvas, a tall editor), stays where it is; the action lands in
// its visible part.
const outOfView = (p: Placement) => !(p.top >= 0 && p.top + p.height <= p.viewport) && !(p.top <= 0 && p.top + p.height >= p.viewport);

/** How far to scroll: an element that fits lands between a third and two thirds down; a taller one gets its nearest edge at the viewport's edge. */
function distanceOf(p: Placement): number {
  if (p.height < p.viewport) return p.top + p.height / 2 - p.viewport * between(0.33, 0.66);
  return p.top > 0 ? p.top : p.top + p.height - p.viewport;
}

/** Waits for the page to stop scrolling (a page may animate it); the last placement. */
async function settled(measure: () => Promise<Placement | null>, last: Placement, budgetEnd: number): Promise<Placement | null> {
  for (const end = Math.min(Date.now() + SETTLE_MS, budgetEnd); Date.now() < end; ) {
    await sleep(60);
    const now = await measure();
    if (!now) return null;
    if (now.top === last.top) return now;
    last = now;
  }
  return last;
}

/** Turns the wheel where the pointer is until `measure` finds the element in view, or the wheel moves nothing, or `end`. */
async function wheelUntilInView(page: Page, measure: () => Promise<Placement | null>, end: number, watch: DialogWatch): Promise<void> {
  let now = await measure();
  for (let notches = 0; now && now.documentScrolls && outOfView(now) && notches < MAX_NOTCHES && Date.now() < end; ) {
    // In one flick of notches.
    const distance = distanceOf(now);
    const flick = Math.min(MAX_NOTCHES - notches, Math.max(1, Math.round(Math.abs(distance) / NOTCH)));
    for (let i = 0; i < flick && Date.now() < end; i++) {
      // A wheel handler's alert, or a page that takes no event: the rest by script, once it is answered.
      if ((await inputStep(watch, () => page.mouse.wheel(0, Math.sign(distance) * NOTCH), STALL_MS)) !== 'done') return;
      await sleep(between(25, 90));
      // A page that throws the scroll back (to its top, on every scroll event) is seen within a
      // few notches: the whole flick and its settling took ~2 s more than the upstream's click.
      if ((i + 1) % PEEK_EVERY === 0 && i + 1 < flick) {
        const peek = await measure();
        if (!peek || (now.top - peek.top) * Math.sign(distance) <= NOTCH * (i + 1) * FOUGHT) return;
      }
    }
    notches += flick;
    const before = now;
    now = await settled(measure, now, end);
    // A wheel that moved nothing (the page keeps it, a scroller under the pointer): leave it to the script.
    if (!now || now.top === before.top) return;
  }
}

// Where over a frame the pointer goes to wheel it: the middle of its viewport first.
const OVER_FRAME = [0.5, 0.3, 0.7, 0.15, 0.85];

/**
 * Wheels the page until the element is in view, for at most `budgetMs`; in
 * a frame that scrolls it itself, the pointer then goes over the frame
 * (`travel`) and the wheel turns there. The caller scrolls the rest, if any,
 * by script.
 */
export async function wheelIntoView(page: Page, locator: Locator, budgetMs: number, watch: DialogWatch, travel: (to: Point) => Promise<boolean>): Promise<void> {
  const end = Date.now() + budgetMs;
  await wheelUntilInView(page, () => placement(locator), end, watch);
  if (watch.open) return;
  const own = await placementInFrame(locator);
  if (!own || !own.documentScrolls || !outOfView(own)) return;
  let over: Point | null = null;
  for (const y of OVER_FRAME) {
    over = await pointInPage(locator, { x: Math.round(own.width / 2), y: Math.round(own.viewport * y) }, true, STALL_MS);
    if (over || Date.now() >= end) break;
  }
  if (!over || !(await travel(over))) return;
  await wheelUntilInView(page, () => placementInFrame(locator), end, watch);
}
