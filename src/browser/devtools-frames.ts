// Chromium's DevTools pipe (--remote-debugging-pipe): fd 3 carries commands
// in, fd 4 messages out, each JSON text ended by a NUL.

export const NUL = 0;
export const NUL_BYTE = Buffer.from([NUL]);

/** Splits a byte stream into NUL-ended messages. */
export class Frames {
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

  /** The bytes of a message not ended yet (for a reader that takes the stream over from here). */
  drain(): Buffer | undefined {
    return this.#pending.length ? Buffer.concat(this.#pending.splice(0)) : undefined;
  }
}
