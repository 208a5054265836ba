// Playwright sends every evaluation with `userGesture: true`, its own
// included: the snapshot in every tool result, a title, an element's checks
// and preview around a click. Each gives the page user activation:
// navigator.userActivation.hasBeenActive turns true with no input event ever
// fired, which no user can cause (activation comes from a keydown, a
// mousedown, a pointerup...), and pop-ups, fullscreen or the clipboard open up
// for the page's own scripts meanwhile. So evaluations go without the
// gesture, except while a tool runs script the user wrote (browser_evaluate,
// browser_run_code_unsafe), which keeps it as on the upstream (a `window.open`
// there opens). Real input still activates the page, as it would for a user.

const GESTURE = '"userGesture":true';

/** Whether a call's last bytes ask for a gesture. */
export function asksForGesture(end: string): boolean {
  return end.includes(GESTURE);
}

/** The call without its gesture (the key is Playwright's, near its end: inside a JSON string every quote is escaped). */
export function withoutGesture(text: string): string {
  const at = text.lastIndexOf(GESTURE);
  return `${text.slice(0, at)}"userGesture":false${text.slice(at + GESTURE.length)}`;
}
