import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ReadEntry } from 'tar';
import { BuildStoreError } from './errors.ts';

// Tarballs are read by `tar`, the package npm itself unpacks every package
// with (maintained by npm, hardened over years of path-traversal reports).
// On top of its own rules, every entry passes our check before anything is
// written: no absolute paths, no `..`, no devices or FIFOs, no link that
// points outside the staging directory. One bad entry fails the whole archive.

function fail(reason: string): never {
  throw new BuildStoreError('archive', `The build archive is unusable: ${reason}. Fix: retry the download; if it persists, report it to the vendor or pass --binary-path <chromium executable>.`);
}

function escapes(name: string): boolean {
  const clean = name.replace(/\/+$/, '');
  return !clean || path.isAbsolute(clean) || /^[A-Za-z]:/.test(clean) || clean.split(/[\\/]/).includes('..');
}

function insideRoot(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const ALLOWED = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

/** Why `entry` may not be written under `root`, or undefined when it may. */
function refusal(root: string, entry: ReadEntry): string | undefined {
  const name = entry.path;
  if (escapes(name)) return `entry ${JSON.stringify(name)} escapes the build directory`;
  if (!ALLOWED.has(entry.type)) return `entry ${JSON.stringify(name)} is a device, FIFO or unknown type ${JSON.stringify(entry.type)}`;
  if (entry.type === 'SymbolicLink' || entry.type === 'Link') {
    const link = entry.linkpath ?? '';
    const target = entry.type === 'SymbolicLink' ? path.resolve(root, path.dirname(name), link) : escapes(link) ? '/' : path.resolve(root, link);
    if (!link || !insideRoot(root, target)) return `link ${JSON.stringify(name)} points outside the build directory`;
  }
  return undefined;
}

async function extractTarGz(archive: string, root: string): Promise<void> {
  let refused: string | undefined;
  // tar loads only when an archive is unpacked, not on every start.
  const { x: untar } = await import('tar');
  await untar({
    file: archive,
    cwd: root,
    // Warnings (a bad header, a truncated body) are errors here.
    strict: true,
    preserveOwner: false,
    filter: (_name, entry) => {
      if (refused) return false;
      refused = refusal(root, entry as ReadEntry);
      return refused === undefined;
    },
  });
  if (refused) fail(refused);
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
