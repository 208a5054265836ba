import type { ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';

// Code of ours that must see or change what Playwright and Chromium say on the
// DevTools pipe (devtools-frames.ts) puts itself between them: child.stdio[3]
// and [4] become stand-in streams that Playwright reads and writes as it would
// the real ones, and the code in the middle decides what reaches each side.
// Interposers stack: the next one wraps the stand-ins of the last.

export interface PipeEnds {
  /** Bytes for Playwright, as if Chromium had sent them. */
  toDriver(bytes: Buffer): void;
  /** Bytes for Chromium; `done` when they are written (or cannot be). */
  toBrowser(bytes: Buffer | string, done?: () => void): void;
}

export interface PipeHandlers {
  /** A chunk Playwright wrote; call `done` once it is passed on (or dropped). */
  fromDriver(chunk: Buffer, done: () => void): void;
  /** A chunk Chromium sent. */
  fromBrowser(chunk: Buffer): void;
}

type Handle = { ref?(): void; unref?(): void };

/** Replaces the child's pipe streams with stand-ins; call before Playwright reads child.stdio[3] and [4]. */
export function interposePipe(child: ChildProcess, handlers: (ends: PipeEnds) => PipeHandlers): PipeEnds | undefined {
  const toChromium = child.stdio[3] as Writable | null;
  const fromChromium = child.stdio[4] as Readable | null;
  if (!toChromium || !fromChromium) return undefined;

  const driverSide = new Readable({ read() {} });
  const ends: PipeEnds = {
    toDriver(bytes) {
      if (!driverSide.destroyed && !driverSide.readableEnded) driverSide.push(bytes);
    },
    toBrowser(bytes, done) {
      if (!toChromium.destroyed && toChromium.writable) toChromium.write(bytes, () => done?.());
      else done?.();
    },
  };
  const { fromDriver, fromBrowser } = handlers(ends);
  const commandSide = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      fromDriver(chunk, () => callback());
    },
  });
  fromChromium.on('data', fromBrowser);
  fromChromium.on('end', () => {
    if (!driverSide.destroyed) driverSide.push(null);
  });
  fromChromium.on('close', () => driverSide.destroy());
  fromChromium.on('error', (error) => driverSide.destroy(error));
  toChromium.on('error', (error) => commandSide.destroy(error));
  toChromium.on('close', () => commandSide.destroy());
  // A pipe error reaches whoever reads the stand-ins; one nobody took (a browser started
  // ahead and discarded) must not end this process with an unhandled 'error'.
  commandSide.on('error', () => {});
  driverSide.on('error', () => {});

  // Whoever holds the process as a handle (ref/unref) holds its real pipes.
  for (const [standIn, real] of [
    [commandSide, toChromium],
    [driverSide, fromChromium],
  ] as [Handle, Handle][]) {
    standIn.ref = () => real.ref?.();
    standIn.unref = () => real.unref?.();
  }
  const stdio = child.stdio as unknown as (Readable | Writable | null)[];
  stdio[3] = commandSide;
  stdio[4] = driverSide;
  return ends;
}
