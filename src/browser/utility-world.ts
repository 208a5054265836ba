import type { BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import type { UserScripts } from './user-scripts.ts';
import { unrecorded } from './unrecorded.ts';

// Playwright keeps its own page script in an isolated "utility" world the
// page cannot see, but hands element handles over to the page's main world:
// every element a selector query returns is adopted there, and the first
// handle installs Playwright's injected script in that world. The upstream
// queries one for each action on a ref (the locator in its result's code),
// and the injected script, as it starts, registers listeners on the page's
// window (`__playwright_global_listeners_check__`, then pointerdown,
// mousedown...) through the page's own addEventListener: a page that wraps
// it sees them, with Playwright's frames in the stack. Queries of ours and
// the upstream's stay in the utility world, except while a tool runs script
// the user wrote (browser_evaluate, browser_run_code_unsafe), whose element
// handles must be the page's, as on the upstream.

export type Impl = Record<string, any>;
type Target = { selector: string; strict?: boolean; scope?: unknown };

/**
 * The in-process server object behind a client object (Playwright's own
 * toImpl); undefined once the server side is gone. toImpl throws then, and it
 * is called from event handlers ('page' while the context closes): a throw
 * there would end the whole server.
 */
export function serverObject(client: object): Impl | undefined {
  try {
    return (client as { _connection?: { toImpl?: (x: object) => Impl } })._connection?.toImpl?.(client);
  } catch {
    return undefined;
  }
}

const sessions = new WeakMap<object, UserScripts>();
let patched = false;

function keepQueries(selectorsProto: Impl): void {
  if (patched) return;
  patched = true;
  const query = selectorsProto.query as (this: Impl, target: Target) => Promise<unknown>;
  // FrameSelectors.query (frameSelectors.ts) without its last step, the adoption into the main world.
  selectorsProto.query = async function (this: Impl, target: Target) {
    const scripts = sessions.get(this.frame?._page?.browserContext);
    if (!scripts || scripts.running) return query.call(this, target);
    const resolved = await this.callOnSelectorHandle(target, ({ elements }: { elements: Element[] }) => elements[0], {});
    if (!resolved) return null;
    const element = resolved.result.asElement();
    if (!element) resolved.result.dispose();
    return element ?? null;
  };
}

/**
 * Hands Playwright's server-side FrameSelectors prototype (what every frame's
 * selector queries go through) to `patch`, from the context's first page:
 * at once, or when that page opens.
 */
export function withFrameSelectors(context: BrowserContext, patch: (selectorsProto: Impl) => void): void {
  const fromPage = (page: Page) => {
    const selectors = serverObject(page.mainFrame())?.selectors as Impl | undefined;
    if (selectors) patch(Object.getPrototypeOf(selectors));
  };
  const page = context.pages()[0];
  if (page) fromPage(page);
  else context.once('page', fromPage);
}

/** This context's element queries stay in the utility world while none of the user's scripts runs. */
export function keepQueriesInUtilityWorld(context: BrowserContext, scripts: UserScripts): void {
  const server = serverObject(context);
  if (!server) return;
  sessions.set(server, scripts);
  if (!patched) withFrameSelectors(context, keepQueries);
}

type WorldFunction = (element: Element, arg: string) => string | null;

async function evalInUtilityWorld<T>(locator: Locator, fn: WorldFunction, arg: unknown): Promise<T | null> {
  const { _frame: frame, _selector: selector } = locator as unknown as { _frame?: { _channel?: Impl }; _selector?: string };
  if (!frame?._channel || typeof selector !== 'string') return null;
  const value = arg === undefined ? { v: 'undefined' } : { s: JSON.stringify(arg) };
  const params = { selector, strict: true, expression: fn.toString(), isFunction: true, arg: { value, handles: [] }, world: 'utility' };
  // Ours, not the upstream's: left out of a trace the user records (unrecorded.ts).
  const { value: answer } = (await unrecorded(frame as unknown as Frame, () => frame._channel!.evalOnSelector(params))) as { value?: { s?: unknown } };
  return typeof answer?.s === 'string' ? (JSON.parse(answer.s) as T) : null;
}

/**
 * Runs `fn` on the locator's element in Playwright's utility world (the page's
 * own world never sees the call) and returns what it gives back as a JSON
 * string, parsed; null when unknown: no such element, an error, or no answer
 * within `withinMs` (a busy page). `fn` must be self-contained; `arg` reaches
 * it as JSON text.
 */
export async function inUtilityWorld<T>(locator: Locator, fn: WorldFunction, withinMs: number, arg?: unknown): Promise<T | null> {
  const answer = await askInUtilityWorld<T>(locator, fn, withinMs, arg);
  return answer === SILENT ? null : answer;
}

/** No answer in time: the page's thread is busy (a long task, a loop). */
export const SILENT = Symbol('silent');

/** As inUtilityWorld, but SILENT when the page gave no answer within `withinMs`, apart from null (no element, an error). */
export async function askInUtilityWorld<T>(locator: Locator, fn: WorldFunction, withinMs: number, arg?: unknown): Promise<T | null | typeof SILENT> {
  const answer = await withDeadline(evalInUtilityWorld<T>(locator, fn, arg).then((value) => ({ value }), () => ({ value: null })), withinMs);
  return answer ? answer.value : SILENT;
}

// Scrolls the element into view, measures it and picks the point a pointer
// goes to: in the middle part (30-70 %) of the largest of its boxes in the
// viewport (a link wrapped over lines has one a line; an element larger than
// the viewport shows in part), on the device pixel grid a real mouse lands
// on, and where a hit test finds the element itself (a rotated bar's bounding
// box is mostly something else; Playwright would refuse a press there as
// intercepted). No such point: null, and Playwright picks its own. Inside a
// frame, all of it is in the frame's viewport (frame-point.ts places it in the page's).
const SCROLL_AND_MEASURE = (element: Element) => {
  (element as Element & { scrollIntoViewIfNeeded?(center: boolean): void }).scrollIntoViewIfNeeded?.(true);
  const box = element.getBoundingClientRect();
  // Playwright's click position is relative to the padding box: its own border widths (getElementBorderWidth).
  const style = getComputedStyle(element);
  const border = { left: parseInt(style.borderLeftWidth || '', 10), top: parseInt(style.borderTopWidth || '', 10) };
  const ratio = devicePixelRatio > 0 ? devicePixelRatio : 1;
  const width = visualViewport?.width ?? innerWidth;
  const height = visualViewport?.height ?? innerHeight;
  let best: { left: number; top: number; right: number; bottom: number } | undefined;
  const area = (r: { left: number; top: number; right: number; bottom: number }) => (r.right - r.left) * (r.bottom - r.top);
  for (const rect of element.getClientRects()) {
    const shown = { left: Math.max(rect.left, 0), top: Math.max(rect.top, 0), right: Math.min(rect.right, width), bottom: Math.min(rect.bottom, height) };
    if (shown.right - shown.left >= 2 && shown.bottom - shown.top >= 2 && (!best || area(shown) > area(best))) best = shown;
  }
  // Inside a shadow root, its own hit test answers with the element (the document's with the host).
  // Playwright's own check counts a hit anywhere in the button or link the element is part of.
  const root = element.getRootNode() as Document | ShadowRoot;
  const pressed = element.closest('button, [role=button], a, [role=link]') ?? element;
  const hits = (x: number, y: number) => {
    const hit = root.elementFromPoint(x, y);
    return !!hit && pressed.contains(hit);
  };
  // Where a press lands decides what some elements do: a slider's value, a date field's segment, the
  // caret in a text field, the part of an element it falls on. A point that does what Playwright's press at the middle does.
  const input = element.nodeName === 'INPUT' ? (element as HTMLInputElement).type : '';
  const centred = ['range', 'date', 'time', 'datetime-local', 'month', 'week'].includes(input);
  const texty = element.nodeName === 'TEXTAREA' || (element as HTMLElement).isContentEditable || (element.nodeName === 'INPUT' && !centred && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'color'].includes(input));
  const caret = (x: number, y: number) => {
    const at = texty ? document.caretPositionFromPoint?.(x, y) : null;
    return at ? [at.offsetNode, at.offset] : null;
  };
  const middle = best && { x: (best.left + best.right) / 2, y: (best.top + best.bottom) / 2 };
  const middleCaret = middle && caret(middle.x, middle.y);
  // A control inside the element (a chip's remove button, a row's menu) is pressed only where the middle is one.
  const controlAt = (x: number, y: number) => root.elementFromPoint(x, y)?.closest('a, button, input, select, textarea, label, summary, [role], [onclick], [tabindex]') ?? null;
  const middleControl = middle && hits(middle.x, middle.y) ? controlAt(middle.x, middle.y) : null;
  const likeTheMiddle = (x: number, y: number) => {
    const at = middleCaret && caret(x, y);
    if (at && (at[0] !== middleCaret![0] || at[1] !== middleCaret![1])) return false;
    return !middleControl || controlAt(x, y) === middleControl;
  };
  let target: { x: number; y: number } | null = null;
  for (let i = 0; best && !target && i < 12; i++) {
    // Random points first, the middle last.
    const [fx, fy] = i < 11 ? [centred ? 0.5 : 0.3 + Math.random() * 0.4, 0.3 + Math.random() * 0.4] : [0.5, 0.5];
    const x = Math.round((best.left + (best.right - best.left) * fx) * ratio) / ratio;
    const y = Math.round((best.top + (best.bottom - best.top) * fy) * ratio) / ratio;
    if (x > best.left && x < best.right && y > best.top && y < best.bottom && hits(x, y) && (i === 11 || likeTheMiddle(x, y))) target = { x, y };
  }
  // Whether an ancestor (body and html aside) is under the pointer: a menu open on hover, whose way there pathKeepingHover picks.
  let hovered = false;
  for (let e = element.parentElement; e && !hovered && e !== document.body && e !== document.documentElement; e = e.parentElement) hovered = e.matches(':is(:hover)');
  return JSON.stringify({ x: box.x, y: box.y, border, pixelRatio: ratio, target, hovered, framed: window !== window.top, viewport: { width, height } });
};

export type ElementBox = {
  x: number;
  y: number;
  border: { left: number; top: number };
  pixelRatio: number;
  target: { x: number; y: number } | null;
  hovered: boolean;
  framed: boolean;
  /** The size of the element's frame's viewport. */
  viewport: { width: number; height: number };
};

/** The element's box in its frame's viewport after scrolling it into view, and the pointer's point on it, asked in the utility world; null when unknown. */
export function boxInUtilityWorld(locator: Locator, withinMs: number): Promise<ElementBox | null> {
  return inUtilityWorld<ElementBox>(locator, SCROLL_AND_MEASURE, withinMs);
}

// A menu that opens on hover (a CSS :hover rule, mouseenter) closes when the
// pointer leaves it: the first of the paths whose every point stays over the
// element's nearest hovered ancestor (body and html aside), 0 when it has
// none, -1 when every path leaves it.
const PATH_KEEPING_HOVER = (element: Element, arg: string) => {
  const paths = JSON.parse(arg) as { x: number; y: number }[][];
  let held: Element | null = null;
  for (let e = element.parentElement; e && !held && e !== document.body && e !== document.documentElement; e = e.parentElement) if (e.matches(':is(:hover)')) held = e;
  if (!held) return '0';
  const root = element.getRootNode() as Document | ShadowRoot;
  const over = (p: { x: number; y: number }) => {
    const hit = root.elementFromPoint(p.x, p.y);
    return !!hit && held.contains(hit);
  };
  return String(paths.findIndex((path) => path.every(over)));
};

// `:is(:hover)`, never a bare `:hover`, throughout: in quirks mode (a page
// without a doctype) a bare `:hover` matches links only (the :hover quirk), so
// every click there read as a pointer the page never got.
// What is under the point (the element's frame's viewport): whether it shows
// the pointer (:hover: a move the browser delivered sets it, whatever the
// page's listeners do; one the browser kept from the page leaves it where it
// was), and whether it is the element (or part of the button or link it is
// in, as Playwright counts a hit): a page that scrolled back, or moved the
// element, while the pointer travelled has something else there.
const UNDER_POINTER = (element: Element, arg: string) => {
  const { x, y } = JSON.parse(arg) as { x: number; y: number };
  const hit = (element.getRootNode() as Document | ShadowRoot).elementFromPoint(x, y);
  const pressed = element.closest('button, [role=button], a, [role=link]') ?? element;
  return JSON.stringify(hit ? { shown: hit.matches(':is(:hover)'), onElement: pressed.contains(hit) } : null);
};

export type UnderPointer = { shown: boolean; onElement: boolean };

/** What the page has at `point` (the element's frame's viewport); null when unknown, SILENT when the page gave no answer in time. */
export function underPointer(locator: Locator, point: { x: number; y: number }, withinMs: number): Promise<UnderPointer | null | typeof SILENT> {
  return askInUtilityWorld<UnderPointer>(locator, UNDER_POINTER, withinMs, point);
}

/** Which of `paths` (points of the element's frame's viewport) keeps an open hover menu around the element open: its index, -1 for none, null when unknown. */
export function pathKeepingHover(locator: Locator, paths: { x: number; y: number }[][], withinMs: number): Promise<number | null> {
  return inUtilityWorld<number>(locator, PATH_KEEPING_HOVER, withinMs, paths);
}
