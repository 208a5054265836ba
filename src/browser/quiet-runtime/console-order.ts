import { loadedCoreBundle } from '../../playwright-bundles.ts';

// With the Runtime domain on, each renderer's console messages reach Playwright
// as they are logged, so a page's list is in logging order. With it off
// (runtime-shim.ts), a renderer's messages arrive at that target's sync: a
// page and its out-of-process iframe are synced apart, so a frame's message
// could be listed before an earlier one of its page. Each message keeps the
// time Chromium logged it (the same clock in every renderer); Playwright's
// page list puts an arrival back in its place by that time. Messages that
// arrive in order (all of them, with the domain on) do not move.

interface ServerMessage {
  timestamp(): number | undefined;
}
interface ServerPage {
  _consoleMessages: ServerMessage[];
  addConsoleMessage(...args: unknown[]): void;
}

let patched = false;

/** Moves the last message back past those logged after it. */
function placeLastByTime(messages: ServerMessage[]): void {
  const last = messages.length - 1;
  const time = messages[last]?.timestamp();
  if (typeof time !== 'number') return;
  let at = last;
  while (at > 0) {
    const before = messages[at - 1]!.timestamp();
    if (typeof before !== 'number' || before <= time) break;
    at--;
  }
  if (at < last) messages.splice(at, 0, messages.pop()!);
}

/** Playwright's per-page console lists stay in logging order under the quiet runtime. */
export function keepConsoleInLoggingOrder(): void {
  if (patched) return;
  patched = true;
  const { server } = loadedCoreBundle() as { server: { Page: { prototype: ServerPage } } };
  const proto = server.Page.prototype;
  const native = proto.addConsoleMessage;
  proto.addConsoleMessage = function (this: ServerPage, ...args: unknown[]) {
    native.apply(this, args);
    // A message Playwright intercepted (its own bindings) is not added: the last one is in place already and stays.
    placeLastByTime(this._consoleMessages);
  };
}
