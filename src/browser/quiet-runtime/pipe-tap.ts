import type { ChildProcess } from 'node:child_process';
import type { UserAgentOverride } from '../client-hints.ts';
import { Frames, NUL_BYTE } from '../devtools-frames.ts';
import { interposePipe } from '../pipe-interpose.ts';
import { OrderedOutbox } from './ordered-outbox.ts';
import { QuietRuntime } from './runtime-shim.ts';

// The tap puts the shim between Playwright and Chromium's DevTools pipe
// (devtools-frames.ts), as two stand-in streams for child.stdio[3] and [4].
// The shim looks at each message's first bytes and decodes only those it
// watches; everything else, snapshots and screenshots included, passes as the
// bytes it came as.

const HEAD_BYTES = 96;

// A message the shim cannot read (it never should: both ends speak valid
// JSON) passes as it is; the pipe must never throw in a data handler.
function guarded<T>(work: () => T, fallback: T): T {
  try {
    return work();
  } catch {
    return fallback;
  }
}
const text = (message: Buffer) => message.toString('utf8');
const head = (message: Buffer) => message.toString('latin1', 0, Math.min(message.length, HEAD_BYTES));
const tail = (message: Buffer) => message.toString('latin1', Math.max(0, message.length - HEAD_BYTES));

/**
 * Runs every message on the child's pipe through the shim. Call before
 * Playwright reads child.stdio[3] and [4].
 */
export function tapDevtoolsPipe(child: ChildProcess, options: { keepConsole: boolean; userAgent?: UserAgentOverride; headlessWindow?: boolean }): QuietRuntime | undefined {
  let shim: QuietRuntime | undefined;
  interposePipe(child, (ends) => {
    const outbox = new OrderedOutbox(ends.toDriver);
    const quiet = new QuietRuntime({
      keepConsole: options.keepConsole,
      userAgent: options.userAgent,
      headlessWindow: options.headlessWindow,
      toBrowser: (message) => ends.toBrowser(`${message}\0`),
      toDriver: (message) => (outbox.add(Buffer.from(message)), outbox.flush()),
      hold: () => outbox.hold(),
      gate: () => outbox.gate(),
    });
    shim = quiet;
    const fromDriver = new Frames();
    const fromBrowser = new Frames();
    return {
      fromDriver(chunk, done) {
        const passed: Buffer[] = [];
        for (const message of fromDriver.push(chunk)) {
          // Most commands are not looked at: only their first bytes are decoded.
          const verdict = guarded(() => quiet.fromDriver(head(message), tail(message), () => text(message)), true);
          if (verdict !== false) passed.push(verdict === true ? message : Buffer.from(verdict), NUL_BYTE);
        }
        if (passed.length) ends.toBrowser(Buffer.concat(passed), done);
        else done();
      },
      fromBrowser(chunk) {
        for (const message of fromBrowser.push(chunk)) {
          const replaced = guarded(() => quiet.fromBrowser(head(message), tail(message), () => text(message)), null);
          if (replaced === null) outbox.add(message);
          else for (const m of replaced) outbox.add(Buffer.from(m));
        }
        outbox.flush();
      },
    };
  });
  return shim;
}
