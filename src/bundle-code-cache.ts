import { createHash } from 'node:crypto';
import fs from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { SOURCE_FORMAT, wrappedSource, writeSourceCopy } from './bundle-source.ts';
import { writeFileAtomicSync } from './fs/write-atomic.ts';

// Node's compile cache (enabled in main.ts) keeps a module's code as V8
// compiled it at load: the top level only. Most of playwright-core's two
// bundles (6.5 MB) is compiled lazily as it runs: zod schemas, the tool
// table, then the launch and snapshot paths. V8 can serialise a script after
// it ran, with every function compiled so far. Measured over stdio on Node,
// 10 alternating starts each, against Node's cache alone: server PSS 123.1 vs
// 127.6 MB median, spawn -> first navigate 1008 vs 1045 ms. The cache is
// written once per bundle file, Node and flags, when the server is first idle
// after a tool call (so the launch and snapshot code is in it), beside Node's
// own cache.

interface Loaded {
  script: vm.Script;
  file: string;
  sourceFile: string;
  /** The V8 cache is missing or was rejected. */
  writeCode: boolean;
  /** The decoded source, when no copy of it was kept yet. */
  source?: string;
}

const loaded: Loaded[] = [];
let state: 'idle' | 'pending' | 'done' = 'idle';

let dirChecked: string | undefined | null = null;

function cacheDir(): string | undefined {
  if (dirChecked === null) dirChecked = privateCacheDir();
  return dirChecked;
}

function privateCacheDir(): string | undefined {
  const base = nodeModule.getCompileCacheDir?.();
  if (!base) return undefined;
  const dir = path.join(base, 'stealth-playwright-mcp');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    // Code read from here runs as ours: nobody else may write it.
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function keyed(dir: string, filename: string, parts: string[], extension: string): string {
  return path.join(dir, `${path.basename(filename, '.js')}-${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 16)}${extension}`);
}

/** Where a bundle's V8 cache and its decoded source are kept. */
function cacheFilesOf(dir: string, filename: string): { code: string; source: string } {
  const stat = fs.statSync(filename);
  // SOURCE_FORMAT: what the decoded source is made of besides the bundle (bundle-source.ts).
  const bundle = [filename, String(stat.size), String(stat.mtimeMs), SOURCE_FORMAT];
  // V8 itself rejects a cache of another V8 or other flags; the key keeps
  // alternating flags or bundle versions from overwriting each other's. The
  // decoded source depends on the bundle alone.
  return {
    code: keyed(dir, filename, [process.version, process.arch, ...bundle, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''], '.v8'),
    source: keyed(dir, filename, bundle, '.src'),
  };
}

/**
 * require() of a playwright-core bundle, compiled from the post-run code cache
 * when there is one. Node's loader does everything else (resolution, the
 * module cache, nested requires); only the compile of the named files changes.
 */
export function requireWithCodeCache(require: NodeJS.Require, request: string, bundles: RegExp): unknown {
  const dir = cacheDir();
  if (!dir) return require(request);
  const extensions = (nodeModule as unknown as { _extensions: Record<string, (module: NodeJS.Module, filename: string) => void> })._extensions;
  const original = extensions['.js']!;
  extensions['.js'] = function (module: NodeJS.Module, filename: string) {
    if (!bundles.test(filename)) return original.call(this, module, filename);
    compileBundle(module, filename, dir);
  };
  try {
    return require(request);
  } finally {
    extensions['.js'] = original;
  }
}

// What Node's loader does for a CommonJS file, from a V8 cache. The wrapped
// source is decoded in one piece: wrapping Node's decoded string would leave
// that string (13 MB: the bundles are UTF-16 in V8) as garbage until the next
// full GC, which a quiet server may not run for minutes.
function compileBundle(module: NodeJS.Module, filename: string, dir: string): void {
  const { code: file, source: sourceFile } = cacheFilesOf(dir, filename);
  const source = wrappedSource(filename, sourceFile);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(file);
  } catch {
    // first start with this bundle
  }
  const script = new vm.Script(source.text, { filename, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  // What is cached already is not written again: the script need not be kept.
  const writeCode = cachedData === undefined || script.cachedDataRejected === true;
  if (writeCode || source.fresh) loaded.push({ script, file, sourceFile, writeCode, source: source.fresh ? source.text : undefined });
  const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
  wrapper.call(module.exports, module.exports, nodeModule.createRequire(filename), module, filename, path.dirname(filename));
}

// Caches of earlier bundle versions (or flags) unused for a week: ~2 MB of
// code and ~3.3 MB of decoded source each.
const STALE_MS = 7 * 24 * 3600 * 1000;

function removeStale(keep: string[]): void {
  const dir = path.dirname(keep[0]!);
  const prefix = path.basename(keep[0]!).replace(/[0-9a-f]{16}\.v8$/, '');
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (keep.includes(file) || !name.startsWith(prefix) || !/^[0-9a-f]{16}\.(v8|src)$/.test(name.slice(prefix.length))) continue;
    if (Date.now() - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
  }
}

/**
 * A tool call answered: the launch and snapshot code is compiled, so the
 * caches that were missing or rejected are worth writing. They are written
 * once per process by flushBundleCodeCache(), when the server is first idle
 * (idle-gc.ts: serialising takes ~50 ms of the event loop) or at shutdown.
 */
export function bundleCodeCacheReady(): void {
  if (state === 'idle' && loaded.length > 0) state = 'pending';
}

/** Writes a save that is due; a failure only costs the speed-up. */
export function flushBundleCodeCache(): void {
  if (state !== 'pending') return;
  state = 'done';
  for (const entry of loaded) {
    try {
      if (entry.writeCode) writeFileAtomicSync(entry.file, entry.script.createCachedData());
      if (entry.source !== undefined) writeSourceCopy(entry.sourceFile, entry.source);
      removeStale([entry.file, entry.sourceFile]);
    } catch {
      // read-only or full cache dir
    }
  }
  loaded.length = 0;
}
