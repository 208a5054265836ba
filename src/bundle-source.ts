import { createHash } from 'node:crypto';
import fs from 'node:fs';
import nodeModule from 'node:module';
import { withKeptNamespaces } from './bundle-interop.ts';
import { writeFileAtomicSync } from './fs/write-atomic.ts';

// The source a playwright-core bundle is compiled from: the file in Node's
// CommonJS wrapper, decoded to a one-byte string (below). Decoding it takes
// a read, a copy into the wrapper and two scans of 6.5 MB on every start;
// the decoded text is kept beside the code cache, so later starts only read
// it. 9 alternating starts each, to `tools/list` with the browser's launch
// left to the first tool (this machine under load): median paired gain
// ~100 ms of ~600 ms spent loading the bundles. The copy begins with the
// SHA-256 of the text after it: a damaged copy (disk, a half-copied cache
// dir) is decoded anew from the bundle, never compiled.

const DIGEST_BYTES = 32;

/** Names how the source is made from the bundle: a change of it must not reuse copies (or code caches) made the old way. */
export const SOURCE_FORMAT = 'one-byte, kept namespaces';

export interface BundleSource {
  text: string;
  /** Decoded from the bundle this time, and one-byte: worth keeping as a copy. */
  fresh: boolean;
}

export function wrappedSource(filename: string, copyFile: string): BundleSource {
  const kept = readCopy(copyFile);
  if (kept !== undefined) return { text: kept, fresh: false };
  const [head, tail] = (nodeModule as unknown as { wrapper: [string, string] }).wrapper;
  const decoded = oneByteSource(readWrapped(filename, head, tail));
  return { ...decoded, text: withKeptNamespaces(decoded.text) };
}

export function writeSourceCopy(copyFile: string, text: string): void {
  const body = Buffer.from(text, 'latin1');
  writeFileAtomicSync(copyFile, Buffer.concat([createHash('sha256').update(body).digest(), body]));
}

function readCopy(copyFile: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(copyFile);
  } catch {
    return undefined;
  }
  const body = bytes.subarray(DIGEST_BYTES);
  if (bytes.length <= DIGEST_BYTES || !createHash('sha256').update(body).digest().equals(bytes.subarray(0, DIGEST_BYTES))) return undefined;
  return body.toString('latin1');
}

// The file between the wrapper's two halves, read into one buffer: no
// second 6.5 MB copy to join them.
function readWrapped(filename: string, head: string, tail: string): Buffer {
  const fd = fs.openSync(filename, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const headBytes = Buffer.byteLength(head);
    const out = Buffer.allocUnsafe(headBytes + size + Buffer.byteLength(tail));
    out.write(head, 0);
    let offset = headBytes;
    while (offset < headBytes + size) {
      const read = fs.readSync(fd, out, offset, headBytes + size - offset, null);
      if (read === 0) throw new Error(`${filename} shrank while it was read`);
      offset += read;
    }
    out.write(tail, offset);
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

// V8 keeps a script's source for as long as the script lives (lazy compiles,
// Function.prototype.toString), in two bytes per character as soon as one
// character is above U+00FF. The bundles have a few hundred such, all in
// comments (box drawing, dashes): written as \u escapes, which mean the same
// in comments, strings, regular expressions and identifiers, the sources take
// 6.5 MB instead of 13 MB (only a template's raw text would differ). The
// UTF-8 is read as Latin-1 (one char per byte, no two-byte string made on the
// way) and only its multi-byte sequences are decoded. A raw line or paragraph
// separator would end a comment where its escape does not: such a source is
// decoded as it is (and not kept: its copy could not be one byte a char).
const MULTI_BYTE = /[\xc2-\xf4][\x80-\xbf]+/g;
const SEPARATORS = /\xe2\x80[\xa8\xa9]/;

function oneByteSource(utf8: Buffer): BundleSource {
  const bytes = utf8.toString('latin1');
  if (SEPARATORS.test(bytes)) return { text: utf8.toString('utf8'), fresh: false };
  const text = bytes.replace(MULTI_BYTE, (sequence) => {
    let out = '';
    for (const char of Buffer.from(sequence, 'latin1').toString('utf8')) {
      const code = char.codePointAt(0)!;
      if (code <= 0xff) out += char;
      else for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    }
    return out;
  });
  return { text, fresh: true };
}
