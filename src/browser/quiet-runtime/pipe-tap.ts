import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { UserAgentOverride } from '../client-hints.ts';
import { OrderedOutbox } from './ordered-outbox.ts';
import { QuietRuntime } from './runtime-shim.ts';

// Chromium's DevTools pipe (--remote-debugging-pipe): fd 3 carries commands
// in, fd 4 messages out, each JSON text ended by a NUL. Playwright reads and
// writes them through child.stdio[3] and [4]; the tap puts the shim between,
// as two stand-in streams. The shim looks at each message's first bytes and
// decodes only those it watches; everything else, snapshots and screenshots
// included, passes as the bytes it came as.

const NUL = 0;

/** Splits a byte stream into NUL-ended messages. */
class Frames {
  #pending: Buffer[] = [];

  /** The complete messages in this chunk (without their NUL), in order. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    let end = chunk.indexOf(NUL, start);
    while (end !== -1) {
      const piece = chunk.subarray(start, end);
      out.push(this.#pending.length ? Buffer.concat([...this.#pending.splice(0), piece]) : piece);
      start = end + 1;
      end = chunk.indexOf(NUL, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    return out;
  }
}

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
 * Replaces the child's pipe streams with stand-ins that run every message
 * through the shim. Call before Playwright reads child.stdio[3] and [4].
 */
export function tapDevtoolsPipe(child: ChildProcess, options: { keepConsole: boolean; userAgent?: UserAgentOverride }): QuietRuntime | undefined {
  const toChromium = child.stdio[3] as Writable | null;
  const fromChromium = child.stdio[4] as Readable | null;
  if (!toChromium || !fromChromium) return undefined;

  const driverSide = new Readable({ read() {} });
  const toDriver = (bytes: Buffer) => {
    if (!driverSide.destroyed && !driverSide.readableEnded) driverSide.push(bytes);
  };
  const writeToChromium = (message: string) => {
    if (!toChromium.destroyed && toChromium.writable) toChromium.write(`${message}\0`);
  };
  const outbox = new OrderedOutbox(toDriver);
  const shim = new QuietRuntime({
    keepConsole: options.keepConsole,
    userAgent: options.userAgent,
    toBrowser: writeToChromium,
    toDriver: (message) => (outbox.add(Buffer.from(message)), outbox.flush()),
    hold: () => outbox.hold(),
  });

  const fromDriver = new Frames();
  const commandSide = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const passed: Buffer[] = [];
      for (const message of fromDriver.push(chunk)) {
        // Most commands are not looked at: only their first bytes are decoded.
        const verdict = guarded(() => shim.fromDriver(head(message), tail(message), () => text(message)), true);
        if (verdict !== false) passed.push(verdict === true ? message : Buffer.from(verdict), NUL_BYTE);
      }
      if (passed.length && !toChromium.destroyed) toChromium.write(Buffer.concat(passed), callback);
      else callback();
    },
  });

  const fromBrowser = new Frames();
  fromChromium.on('data', (chunk: Buffer) => {
    for (const message of fromBrowser.push(chunk)) {
      const replaced = guarded(() => shim.fromBrowser(head(message), tail(message), () => text(message)), null);
      if (replaced === null) outbox.add(message);
      else for (const m of replaced) outbox.add(Buffer.from(m));
    }
    outbox.flush();
  });
  fromChromium.on('end', () => {
    if (!driverSide.destroyed) driverSide.push(null);
  });
  fromChromium.on('close', () => driverSide.destroy());
  fromChromium.on('error', (error) => driverSide.destroy(error));
  toChromium.on('error', (error) => commandSide.destroy(error));
  toChromium.on('close', () => commandSide.destroy());

  const stdio = child.stdio as unknown as (Readable | Writable | null)[];
  stdio[3] = commandSide;
  stdio[4] = driverSide;
  return shim;
}

const NUL_BYTE = Buffer.from([NUL]);
