import type { Keyboard, Page } from 'playwright-core';
import type { Call } from '../upstream-call.ts';
import { inputStep, type DialogWatch } from './dialog-watch.ts';
import { between, keyHoldMs, sleep } from './timing.ts';

// Keys as a keyboard sends them. Playwright's typing presses "H" with no
// Shift down (a keydown whose key is a capital and whose shiftKey is false:
// no keyboard sends that) and lets every key up in the same millisecond.
// Here a character that needs Shift on Playwright's US layout gets Shift
// pressed around it, and every key stays down for a human while.

type KeyboardMethods = Pick<Keyboard, 'down' | 'up' | 'type' | 'press'>;
let plain: KeyboardMethods | undefined;

/** Keeps Playwright's own keyboard methods before they are patched: typing here goes through them. */
export function keepPlainKeyboard(proto: KeyboardMethods): void {
  plain ??= { down: proto.down, up: proto.up, type: proto.type, press: proto.press };
}

/** Playwright's press, unpatched. */
export function plainPress(keyboard: Keyboard, key: string, options?: { delay?: number }): Promise<void> {
  return plain!.press.call(keyboard, key, options);
}

/** A `before` for upstream-call's runner that prepares nothing. */
export const nothing = async (): Promise<void> => {};

/** Playwright's split of a key combination: a `+` separates keys, but as a key's first character it is the key (`Shift++`). */
function combination(key: string): string[] {
  const keys: string[] = [];
  let building = '';
  for (const char of key) {
    if (char === '+' && building) {
      keys.push(building);
      building = '';
    } else building += char;
  }
  keys.push(building);
  return keys;
}

/**
 * Playwright's press of `key` (a combination such as `Control+a` too), the
 * key held `holdMs` counted from when its down was sent, not from when the
 * page took it: a person's down and up reach a page busy with long tasks in
 * the same gap between two of them, where the up of Playwright's press with
 * a delay waits for the next task (twice the upstream's time there). `run`
 * makes each call as the upstream's would be named (upstream-call.ts).
 */
export async function heldPress(keyboard: Keyboard, key: string, holdMs: number, run: Call): Promise<void> {
  const keys = plain!;
  const send = (method: (key: string) => Promise<void>, name: string) => run(nothing, method, keyboard, [name]);
  const modifiers = combination(key);
  const last = modifiers.pop()!;
  for (const modifier of modifiers) await send(keys.down, modifier);
  // Awaited where it is sent: Playwright names a failed key after the awaiting frames (upstream-call.ts).
  const held = sleep(holdMs);
  await send(keys.down, last);
  await held;
  await send(keys.up, last);
  for (const modifier of modifiers.reverse()) await send(keys.up, modifier);
}

// The US layout's characters typed with Shift (Playwright's layout: usKeyboardLayout).
const SHIFTED = /^[A-Z~!@#$%^&*()_+{}|:"<>?]$/;

export const pageOf = (keyboard: Keyboard): Page => (keyboard as unknown as { _page: Page })._page;

// A page that takes this long over each of three keys in a row (a heavy
// keydown handler) gets the rest of a filled text at once, as the upstream's
// fill puts all of it: typing 40 characters there took 18 s.
const SLOW_KEY_MS = 200;
const SLOW_KEYS = 3;

/**
 * Types the text key by key with human holds and gaps (characters off the
 * layout are inserted, as Playwright does). With a watch, typing stops at a
 * dialog the page opens ('dialog') or at a key left unanswered ('stalled'),
 * and on a page slow to take each key the rest is inserted at once; without
 * one, a key waits as Playwright's own typing waits (browser_type's slowly
 * mode: the upstream answers with the dialog and types on after it). A
 * text whose `call` the client cancelled gets its rest at once
 * (cancelled-calls.ts): the tool call it types for, read as that call began
 * (read here, after the click that focused the field, it was at times the
 * client's next call already, and the rest went into the next field).
 */
export async function typeLikeAPerson(keyboard: Keyboard, text: string, watch?: DialogWatch, call?: AbortSignal): Promise<'typed' | 'dialog' | 'stalled'> {
  const keys = plain!;
  const step = (work: () => Promise<unknown>) => (watch ? inputStep(watch, work) : work().then(() => 'done' as const));
  const chars = [...text];
  let slowInARow = 0;
  // One key with its hold; how long the page took over it beyond the hold counts towards a slow page.
  const typeKey = async (char: string) => {
    const hold = keyHoldMs();
    const started = Date.now();
    const done = await step(() => keys.type.call(keyboard, char, { delay: hold }));
    slowInARow = Date.now() - started - hold > SLOW_KEY_MS ? slowInARow + 1 : 0;
    return done;
  };
  for (const [index, char] of chars.entries()) {
    if (watch && (slowInARow >= SLOW_KEYS || call?.aborted)) {
      const inserted = await step(() => keyboard.insertText(chars.slice(index).join('')));
      return inserted === 'done' ? 'typed' : inserted;
    }
    if (index > 0) await sleep(between(30, 120));
    if (!SHIFTED.test(char)) {
      const done = await typeKey(char);
      if (done !== 'done') return done;
      continue;
    }
    let done = await step(() => keys.down.call(keyboard, 'Shift'));
    try {
      if (done === 'done') {
        await sleep(between(25, 70));
        done = await typeKey(char);
        if (done === 'done') await sleep(between(10, 45));
      }
    } finally {
      const up = keys.up.call(keyboard, 'Shift');
      // Behind a dialog the key comes up when it is answered; nothing waits for that.
      if (done === 'done') await up;
      else void up.catch(() => {});
    }
    if (done !== 'done') return done;
  }
  return 'typed';
}
