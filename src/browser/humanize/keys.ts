import type { Keyboard } from 'playwright-core';
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

// The US layout's characters typed with Shift (Playwright's layout: usKeyboardLayout).
const SHIFTED = /^[A-Z~!@#$%^&*()_+{}|:"<>?]$/;

/** Types the text key by key with human holds and gaps (characters off the layout are inserted, as Playwright does). */
export async function typeLikeAPerson(keyboard: Keyboard, text: string): Promise<void> {
  const keys = plain!;
  let first = true;
  for (const char of text) {
    if (!first) await sleep(between(30, 120));
    first = false;
    if (!SHIFTED.test(char)) {
      await keys.type.call(keyboard, char, { delay: keyHoldMs() });
      continue;
    }
    await keys.down.call(keyboard, 'Shift');
    try {
      await sleep(between(25, 70));
      await keys.type.call(keyboard, char, { delay: keyHoldMs() });
      await sleep(between(10, 45));
    } finally {
      await keys.up.call(keyboard, 'Shift');
    }
  }
}
