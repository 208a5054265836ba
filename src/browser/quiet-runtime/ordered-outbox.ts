// What goes to Playwright from Chromium's pipe, in the order it came. A message
// the shim must finish first (a replayed console call whose arguments get their
// previews) holds a slot; everything after it waits behind that slot, so
// Playwright never sees a later event (a context destroyed, a response) before
// it. Without a held slot, messages pass at once. A gate holds everything
// after it too, and takes no place in the stream once opened.

export interface Slot {
  /** The message to deliver in the slot's place; a second fill is ignored. */
  fill(message: Buffer): void;
}

const NUL = Buffer.from([0]);

/** Messages without their NUL: the outbox ends each one. An opened gate is an empty message: nothing is sent for it. */
type Entry = Buffer | { message: Buffer | undefined };
const OPENED = Buffer.alloc(0);

export class OrderedOutbox {
  #queue: Entry[] = [];
  #push: (bytes: Buffer) => void;

  constructor(push: (bytes: Buffer) => void) {
    this.#push = push;
  }

  add(message: Buffer): void {
    this.#queue.push(message);
  }

  hold(): Slot {
    const entry: { message: Buffer | undefined } = { message: undefined };
    this.#queue.push(entry);
    return {
      fill: (message) => {
        if (entry.message) return;
        entry.message = message;
        this.flush();
      },
    };
  }

  /** Holds what comes after until the returned function opens it (again: nothing). */
  gate(): () => void {
    const slot = this.hold();
    return () => slot.fill(OPENED);
  }

  /** Delivers everything up to the first slot not filled yet, in one write. */
  flush(): void {
    let ready = 0;
    while (ready < this.#queue.length) {
      const entry = this.#queue[ready]!;
      if (!Buffer.isBuffer(entry) && !entry.message) break;
      ready++;
    }
    if (!ready) return;
    const out: Buffer[] = [];
    for (const entry of this.#queue.splice(0, ready)) {
      const message = Buffer.isBuffer(entry) ? entry : entry.message!;
      if (message !== OPENED) out.push(message, NUL);
    }
    if (out.length) this.#push(Buffer.concat(out));
  }
}
