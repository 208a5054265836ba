import type { BrowserContext, Locator, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import type { UserScripts } from './user-scripts.ts';

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

type Impl = Record<string, any>;
type Target = { selector: string; strict?: boolean; scope?: unknown };

/** The in-process server object behind a client object (Playwright's own toImpl). */
function serverObject(client: object): Impl | undefined {
  return (client as { _connection?: { toImpl?: (x: object) => Impl } })._connection?.toImpl?.(client);
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

/** This context's element queries stay in the utility world while none of the user's scripts runs. */
export function keepQueriesInUtilityWorld(context: BrowserContext, scripts: UserScripts): void {
  const server = serverObject(context);
  if (!server) return;
  sessions.set(server, scripts);
  const fromPage = (page: Page) => {
    const selectors = serverObject(page.mainFrame())?.selectors as Impl | undefined;
    if (selectors) keepQueries(Object.getPrototypeOf(selectors));
  };
  if (patched) return;
  const page = context.pages()[0];
  if (page) fromPage(page);
  else context.once('page', fromPage);
}

async function evalInUtilityWorld<T>(locator: Locator, fn: (element: Element) => string | null): Promise<T | null> {
  const { _frame: frame, _selector: selector } = locator as unknown as { _frame?: { _channel?: Impl }; _selector?: string };
  if (!frame?._channel || typeof selector !== 'string') return null;
  const params = { selector, strict: true, expression: fn.toString(), isFunction: true, arg: { value: { v: 'undefined' }, handles: [] }, world: 'utility' };
  const { value } = (await frame._channel.evalOnSelector(params)) as { value?: { s?: unknown } };
  return typeof value?.s === 'string' ? (JSON.parse(value.s) as T) : null;
}

/**
 * Runs `fn` on the locator's element in Playwright's utility world (the page's
 * own world never sees the call) and returns what it gives back as a JSON
 * string, parsed; null when unknown: no such element, an error, or no answer
 * within `withinMs` (a busy page). `fn` must be self-contained.
 */
export async function inUtilityWorld<T>(locator: Locator, fn: (element: Element) => string | null, withinMs: number): Promise<T | null> {
  return (await withDeadline(evalInUtilityWorld<T>(locator, fn).catch(() => null), withinMs)) ?? null;
}

// Scrolls the element into view and measures it; an element inside a frame is
// left to Playwright (its box would be the frame's). The device pixel ratio
// puts a pointer on the pixel grid a real mouse lands on.
const SCROLL_AND_MEASURE = (element: Element) => {
  if (window !== window.top) return null;
  (element as Element & { scrollIntoViewIfNeeded?(center: boolean): void }).scrollIntoViewIfNeeded?.(true);
  const box = element.getBoundingClientRect();
  // Playwright's click position is relative to the padding box: its own border widths (getElementBorderWidth).
  const style = getComputedStyle(element);
  const border = { left: parseInt(style.borderLeftWidth || '', 10), top: parseInt(style.borderTopWidth || '', 10) };
  // The viewport without scroll bars, as Playwright clips a click point to it.
  const viewport = { width: visualViewport?.width ?? innerWidth, height: visualViewport?.height ?? innerHeight };
  return JSON.stringify({ x: box.x, y: box.y, width: box.width, height: box.height, border, pixelRatio: devicePixelRatio, viewport });
};

export type ElementBox = {
  x: number;
  y: number;
  width: number;
  height: number;
  border: { left: number; top: number };
  pixelRatio: number;
  viewport: { width: number; height: number };
};

/** The element's box in the page's viewport after scrolling it into view, asked in the utility world; null when unknown. */
export function boxInUtilityWorld(locator: Locator, withinMs: number): Promise<ElementBox | null> {
  return inUtilityWorld<ElementBox>(locator, SCROLL_AND_MEASURE, withinMs);
}
