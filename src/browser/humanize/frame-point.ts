import type { Locator } from 'playwright-core';
import { withDeadline } from '../deadline.ts';
import { serverObject, type Impl } from '../utility-world.ts';

// An element inside a frame (a login form, a payment field, a captcha's
// checkbox) is measured in its frame's viewport; the mouse moves in the
// page's. Each frame's owner, the iframe element, is asked where the frame
// shows, in Playwright's utility world of the parent frame (as a query of
// ours, the page's own world never sees it): through the DevTools protocol,
// which finds the owner of a cross-site frame in another process too.

type Point = { x: number; y: number };
type Size = { width: number; height: number };

// On the iframe, in its parent frame: `point` of the frame's viewport in the
// parent's viewport, where it shows (inside the parent's viewport, and the
// parent's hit test finds the iframe there: nothing covers it). An iframe
// scaled or turned by a transform maps no point by an offset: null.
const OWNER_POINT = (owner: Element, arg: string) => {
  const point = JSON.parse(arg) as { x: number; y: number };
  const frame = owner as HTMLElement;
  const rect = frame.getBoundingClientRect();
  if (Math.abs(rect.width - frame.offsetWidth) > 0.5 || Math.abs(rect.height - frame.offsetHeight) > 0.5) return null;
  const style = getComputedStyle(frame);
  const x = rect.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0) + point.x;
  const y = rect.top + frame.clientTop + (parseFloat(style.paddingTop) || 0) + point.y;
  const width = visualViewport?.width ?? innerWidth;
  const height = visualViewport?.height ?? innerHeight;
  if (!(x > 0 && y > 0 && x < width && y < height)) return null;
  const root = frame.getRootNode() as Document | ShadowRoot;
  return root.elementFromPoint(x, y) === frame ? JSON.stringify({ x, y, viewport: { width, height } }) : null;
};

/** The frame the locator's element is in: a ref of the upstream's snapshot names its frame, a selector may enter frames. */
async function frameOf(locator: Locator): Promise<Impl | undefined> {
  const { _frame: client, _selector: selector } = locator as unknown as { _frame: object; _selector: string };
  const resolved = (await serverObject(client)?.selectors?.callOnSelector({ selector, strict: true }, () => 0, undefined)) as { frame?: Impl } | null;
  return resolved?.frame;
}

/**
 * Carries `start`, measured in the locator's frame, up to the main frame:
 * `step` maps it from a frame to its parent, on the frame's owner (the iframe
 * element, as a handle in the parent's utility world); `toMain` says the
 * parent is the main frame (an element of the main frame takes no step).
 * Null when the element's frame is not found, or a step gives null.
 */
export async function carryToMainFrame<T>(locator: Locator, start: T, step: (owner: Impl, value: T, toMain: boolean) => Promise<T | null>): Promise<T | null> {
  let frame = await frameOf(locator);
  let value = start;
  for (let parent: Impl | null = frame?.parentFrame(); frame && parent; frame = parent, parent = frame.parentFrame()) {
    // Chromium's page (CRPage): the DevTools session of the parent frame's process.
    const session = frame._page?.delegate?._sessionForFrame?.(parent) as Impl | undefined;
    if (!session?._client || !session._adoptBackendNodeId) return null;
    const { backendNodeId } = (await session._client.send('DOM.getFrameOwner', { frameId: frame._id })) as { backendNodeId: number };
    const owner = (await session._adoptBackendNodeId(backendNodeId, await parent.utilityContext())) as Impl;
    try {
      const next = await step(owner, value, !parent.parentFrame());
      if (next === null) return null;
      value = next;
    } finally {
      owner.dispose();
    }
  }
  return frame ? value : null;
}

/** `fn` run on a handle of ours (in a utility world), its JSON answer parsed; null for any other answer. */
export async function evaluateOnOwner<T>(owner: Impl, fn: (element: Element, arg: string) => string | null, arg: unknown): Promise<T | null> {
  const answer: unknown = await owner.evaluate(fn, JSON.stringify(arg));
  return typeof answer === 'string' ? (JSON.parse(answer) as T) : null;
}

/**
 * Where the pointer's point on the element, in its frame's viewport, is in
 * the page's viewport (the same point in the main frame), with the size of
 * that viewport for an element in a frame (`viewport`); null when it does not
 * show there (out of the iframe's part in view, covered, a transformed
 * iframe) or cannot be known within `withinMs`.
 */
export async function pointInPage(locator: Locator, point: Point, framed: boolean, withinMs: number): Promise<(Point & { viewport?: Size }) | null> {
  if (!framed) return point;
  const climb = carryToMainFrame<Point & { viewport?: Size }>(locator, point, (owner, inner) => evaluateOnOwner(owner, OWNER_POINT, { x: inner.x, y: inner.y }));
  return (await withDeadline(climb.catch(() => null), withinMs)) ?? null;
}
