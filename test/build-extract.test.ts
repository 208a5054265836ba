import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, describe, test } from 'node:test';
import { extractArchive } from '../src/browser/build-store/extract.ts';

// The build store unpacks a downloaded archive into a staging directory. Every
// safety property, held against archives written byte by byte (GNU tar would
// refuse to write most of these).

interface Entry {
  name: string;
  /** ustar type flag: 0 file, 1 hard link, 2 symlink, 3 char device, 5 directory, 6 FIFO. */
  type?: string;
  link?: string;
  body?: string;
  mode?: number;
}

function header(e: Entry, size: number): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, at: number, len: number) => h.write(text.slice(0, len), at, len, 'utf8');
  const octal = (n: number, at: number, len: number) => put(`${n.toString(8).padStart(len - 1, '0')}\0`, at, len);
  put(e.name, 0, 100);
  octal(e.mode ?? 0o644, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(0, 136, 12);
  h.fill(0x20, 148, 156); // checksum field counts as spaces
  put(e.type ?? '0', 156, 1);
  put(e.link ?? '', 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  const sum = h.reduce((a, b) => a + b, 0);
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

function tarGz(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    blocks.push(header(e, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

describe('build archive extraction (tar, plus our entry check)', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-extract-'));
  after(() => fs.rmSync(work, { recursive: true, force: true }));
  let n = 0;
  async function extract(entries: Entry[]): Promise<{ root: string; error?: Error }> {
    const dir = path.join(work, `case-${n++}`);
    fs.mkdirSync(dir);
    const archive = path.join(dir, 'build.tar.gz');
    fs.writeFileSync(archive, tarGz(entries));
    const root = path.join(dir, 'staging', 'inner');
    const error = await extractArchive(archive, root).then(() => undefined, (e: Error) => e);
    return { root, error };
  }

  test('a good archive: files with their modes, links inside, the single top directory lifted', async () => {
    const { root, error } = await extract([
      { name: 'cloakbrowser-linux-x64/', type: '5', mode: 0o755 },
      { name: 'cloakbrowser-linux-x64/chrome', body: '#!/bin/sh\n', mode: 0o755 },
      { name: 'cloakbrowser-linux-x64/locales/en-US.pak', body: 'pak' },
      { name: 'cloakbrowser-linux-x64/chrome-link', type: '2', link: 'chrome' },
      { name: 'cloakbrowser-linux-x64/locales/en.pak', type: '1', link: 'cloakbrowser-linux-x64/locales/en-US.pak' },
    ]);
    assert.equal(error, undefined);
    assert.equal(fs.readFileSync(path.join(root, 'chrome'), 'utf8'), '#!/bin/sh\n');
    assert.equal(fs.statSync(path.join(root, 'chrome')).mode & 0o777, 0o755);
    assert.equal(fs.readlinkSync(path.join(root, 'chrome-link')), 'chrome');
    assert.equal(fs.readFileSync(path.join(root, 'locales', 'en.pak'), 'utf8'), 'pak');
  });

  const sentinel = path.join(os.tmpdir(), `spm-extract-escaped-${process.pid}`);
  for (const [what, entries] of [
    ['an absolute path', [{ name: sentinel, body: 'x' }]],
    ['a path with ..', [{ name: `top/../../../${path.basename(sentinel)}`, body: 'x' }]],
    ['a symlink to an absolute path', [{ name: 'top/l', type: '2', link: '/etc/passwd' }]],
    ['a symlink that climbs out', [{ name: 'top/dir/l', type: '2', link: '../../../etc' }]],
    ['a symlink, then a file written through it', [{ name: 'top/out', type: '2', link: os.tmpdir() }, { name: `top/out/${path.basename(sentinel)}`, body: 'x' }]],
    ['a hard link to a file outside', [{ name: 'top/h', type: '1', link: '/etc/passwd' }]],
    ['a character device', [{ name: 'top/tty', type: '3' }]],
    ['a FIFO', [{ name: 'top/fifo', type: '6' }]],
  ] as [string, Entry[]][]) {
    test(`refused: ${what}; nothing is written outside the staging directory`, async () => {
      const { error } = await extract([{ name: 'top/', type: '5' }, { name: 'top/ok', body: 'fine' }, ...entries]);
      assert.ok(error, 'the archive is refused');
      assert.equal((error as { kind?: string }).kind, 'archive', String(error));
      assert.match(error.message, /The build archive is unusable: .*(escapes the build directory|points outside the build directory|device, FIFO).*Fix:/);
      assert.equal(fs.existsSync(sentinel), false, `${sentinel} was written`);
    });
  }

  test('a truncated archive is refused, not half-used', async () => {
    const dir = path.join(work, 'truncated');
    fs.mkdirSync(dir);
    const whole = tarGz([{ name: 'top/big', body: 'y'.repeat(100_000) }]);
    const archive = path.join(dir, 'build.tar.gz');
    fs.writeFileSync(archive, whole.subarray(0, Math.floor(whole.length / 2)));
    const error = await extractArchive(archive, path.join(dir, 'staging')).then(() => undefined, (e: Error) => e);
    assert.ok(error);
    assert.match(error.message, /The build archive is unusable/);
  });
});
