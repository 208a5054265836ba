import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BuildStoreError } from './errors.ts';

// Our own tar reader (gzip via node:zlib): no dependency, and every entry goes
// through one safety check — no absolute paths, no `..`, no devices or FIFOs,
// no link that points outside the staging directory.

function fail(reason: string): never {
  throw new BuildStoreError('archive', `The build archive is unusable: ${reason}. Fix: retry the download; if it persists, report it to the vendor or pass --binary-path <chromium executable>.`);
}

function safeTarget(root: string, name: string): string {
  const clean = name.replace(/\/+$/, '');
  if (!clean || path.isAbsolute(clean) || /^[A-Za-z]:/.test(clean) || clean.split(/[\\/]/).includes('..')) fail(`entry ${JSON.stringify(name)} escapes the build directory`);
  return path.join(root, clean);
}

function insideRoot(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function cString(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? raw.length : nul).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  // GNU base-256 for sizes over 8 GiB.
  if (field[0]! & 0x80) return field.subarray(1).reduce((n, b) => n * 256 + b, 0);
  const text = cString(block, start, length).trim();
  return text ? parseInt(text, 8) : 0;
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space === -1) break;
    const len = Number(data.toString('utf8', i, space));
    if (!len) break;
    const record = data.toString('utf8', space + 1, i + len - 1);
    const eq = record.indexOf('=');
    out[record.slice(0, eq)] = record.slice(eq + 1);
    i += len;
  }
  return out;
}

/** A byte source read exactly: `take(n)` resolves with n bytes, or fewer at the end. */
function reader(stream: AsyncIterable<Buffer>) {
  const it = stream[Symbol.asyncIterator]();
  let buffered: Buffer[] = [];
  let size = 0;
  return async function take(n: number): Promise<Buffer> {
    while (size < n) {
      const { done, value } = await it.next();
      if (done) break;
      buffered.push(value);
      size += value.length;
    }
    const all = Buffer.concat(buffered);
    const out = all.subarray(0, n);
    buffered = [all.subarray(n)];
    size = all.length - out.length;
    return out;
  };
}

async function extractTarGz(archive: string, root: string): Promise<void> {
  const take = reader(fs.createReadStream(archive).pipe(zlib.createGunzip()) as AsyncIterable<Buffer>);
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax: Record<string, string> = {};
  const links: [string, string][] = [];
  for (;;) {
    const header = await take(512);
    if (header.length < 512) fail('it ends in the middle of a header');
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    const prefix = header.toString('latin1', 257, 263).startsWith('ustar') ? cString(header, 345, 155) : '';
    const name = pax.path ?? longName ?? (prefix ? `${prefix}/${cString(header, 0, 100)}` : cString(header, 0, 100));
    const linkName = pax.linkpath ?? longLink ?? cString(header, 157, 100);
    const mode = octal(header, 100, 8) & 0o777;
    const padded = Math.ceil(size / 512) * 512;
    if (type === 'x' || type === 'g' || type === 'L' || type === 'K') {
      const data = (await take(padded)).subarray(0, size);
      if (type === 'x') pax = parsePax(data);
      else if (type === 'L') longName = cString(data, 0, data.length);
      else if (type === 'K') longLink = cString(data, 0, data.length);
      continue;
    }
    [pax, longName, longLink] = [{}, undefined, undefined];
    const target = safeTarget(root, name);
    if (type === '5') {
      await fsp.mkdir(target, { recursive: true });
    } else if (type === '0' || type === '7') {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const handle = await fsp.open(target, 'wx', mode || 0o644);
      try {
        let left = size;
        while (left > 0) {
          const chunk = await take(Math.min(left, 1 << 20));
          if (chunk.length === 0) fail(`it ends inside ${name}`);
          await handle.write(chunk);
          left -= chunk.length;
        }
      } finally {
        await handle.close();
      }
      await take(padded - size);
      continue;
    } else if (type === '2' || type === '1') {
      const resolved = type === '2' ? path.resolve(path.dirname(target), linkName) : safeTarget(root, linkName);
      if (!insideRoot(root, resolved)) fail(`link ${JSON.stringify(name)} points outside the build directory`);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // Hard links last: their target may come later in the archive.
      if (type === '2') await fsp.symlink(linkName, target);
      else links.push([resolved, target]);
    } else {
      fail(`entry ${JSON.stringify(name)} is a device, FIFO or unknown type ${JSON.stringify(type)}`);
    }
    await take(padded);
  }
  for (const [from, to] of links) await fsp.link(from, to);
}

/**
 * Extracts into `root` (an empty staging directory), then lifts a single
 * top-level directory up, as the vendor's archives wrap their files in one
 * (a macOS `.app` bundle stays as it is).
 */
export async function extractArchive(archive: string, root: string): Promise<void> {
  await fsp.mkdir(root, { recursive: true });
  try {
    if (archive.endsWith('.zip')) {
      // Windows builds: bsdtar ships with Windows 10+ and reads zip; no path in
      // a zip can escape with bsdtar's default (it refuses `..` and absolute).
      await promisify(execFile)('tar', ['-xf', archive, '-C', root]);
    } else {
      await extractTarGz(archive, root);
    }
  } catch (error) {
    if (error instanceof BuildStoreError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EACCES' || code === 'EROFS') throw error;
    fail((error as Error).message);
  }
  const top = await fsp.readdir(root, { withFileTypes: true });
  if (top.length === 1 && top[0]!.isDirectory() && !top[0]!.name.endsWith('.app')) {
    const inner = path.join(root, top[0]!.name);
    const lifted = `${root}.lift`;
    await fsp.rename(inner, lifted);
    await fsp.rmdir(root);
    await fsp.rename(lifted, root);
  }
}
