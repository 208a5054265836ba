import type { Before } from '../upstream-call.ts';

// The upstream gives each action its timeout (--timeout-action, 5 s by default): Playwright's
// wait for the element to be visible, stable, enabled and hit. Ours first takes the pointer there
// (a path, a wheel into view: 0.3-1 s), then, when the element is not one a press can land on
// (it moves, it is disabled, covered), hands it to Playwright's plain action. That action gets
// what is left of the timeout, so the call fails at the timeout as the upstream's does, not a
// second later; its error still names the timeout the upstream gave. A way there that took
// nearly all of it (a page slow to take each move) still leaves the action a fifth of it, at
// most FLOOR_MS: with a short --timeout-action (1.5 s) a whole second on top of a way of ~1 s
// answered 0.5 s after the upstream (2140 against 1676 ms on a disabled button).

const FLOOR_MS = 1000;
const FLOOR_SHARE = 0.2;

type Options = Record<string, unknown>;

export interface SharedTimeout {
  /** `before`, then the action's options (argv[at]) given what is left of their timeout. */
  readonly before: Before;
  /** The call's outcome, its timeout error naming the timeout asked for. */
  settle<T>(call: Promise<T>): Promise<T>;
}

/**
 * One timeout for the way there and the action after it; call on entry to the wrapper.
 * `own`: a click of ours (a field's focus, a box's tick), whose timeout bounds only its action.
 */
export function sharedTimeout(before: Before, argv: unknown[], at: number, own = false): SharedTimeout {
  const started = performance.now();
  let asked: number | undefined;
  let given: number | undefined;
  return {
    before: async () => {
      const answered = await before();
      const options = argv[at] as Options | undefined;
      const timeout = options?.timeout;
      // 0 is no timeout; without one, Playwright's default applies, which the upstream never leaves.
      if (own || typeof timeout !== 'number' || !(timeout > 0)) return answered;
      const left = Math.max(Math.min(FLOOR_MS, Math.round(timeout * FLOOR_SHARE)), Math.round(timeout - (performance.now() - started)));
      if (left < timeout) {
        asked = timeout;
        given = left;
        argv[at] = { ...options, timeout: left };
      }
      return answered;
    },
    settle: (call) =>
      call.catch((error: unknown) => {
        if (given !== undefined && error instanceof Error && error.name === 'TimeoutError') error.message = error.message.replace(`Timeout ${given}ms exceeded`, `Timeout ${asked}ms exceeded`);
        throw error;
      }),
  };
}
