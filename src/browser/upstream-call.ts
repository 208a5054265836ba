import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { loadedCoreBundle } from '../playwright-bundles.ts';

// Playwright prefixes a failed call's error with a name read from the stack:
// the last of its own frames before the first frame of its caller. Under the
// upstream a click that times out reads "browserBackend.callTool: Timeout …";
// run by a wrapper of ours after some preparation (humanize.ts), the same
// click would read "locator.click: Timeout …". The wrapper's final call of
// Playwright's method runs in a function compiled as a file of
// playwright-core's and named after the frame the upstream's call would have
// been named by, so its error reads the same.

type Frame = { file: string; function?: string };
interface Utils {
  coreDir(): string | undefined;
  parseStackFrame(line: string): Frame | null;
}

/** `before` may answer for the call (`{ result }`): Playwright's method then does not run; or name another receiver for it (`{ self }`). */
export type Before = () => Promise<{ result: unknown } | { self: unknown } | void>;
/** A runner of callAsUpstream's: `before`, then Playwright's `original` on `self`, then `after` with its result. */
export type Call = (before: Before, original: (...args: any[]) => Promise<unknown>, self: unknown, argv: unknown[], after?: (result: unknown) => Promise<unknown>) => Promise<unknown>;

const BODY = "return async function (before, original, self, argv, after) { const answered = await before(); if (answered && 'result' in answered) return answered.result; const result = await Reflect.apply(original, answered ? answered.self : self, argv); return after ? await after(result) : result; };";
// The same runner without playwright-core's file name, where that cannot be had (errors then read "locator.click: …").
const plain = (new Function(BODY) as () => Call)();

let factory: (() => Call) | null | undefined;
let utils: Utils | undefined;

function makeFactory(): (() => Call) | null {
  try {
    utils = (loadedCoreBundle() as { utils: Utils }).utils;
    const dir = utils.coreDir();
    if (!dir) return null;
    return vm.compileFunction(BODY, [], { filename: path.join(dir, 'lib', 'humanized-call.js') }) as () => Call;
  } catch {
    return null;
  }
}

interface CallSite {
  getFileName(): string | null | undefined;
  getFunctionName(): string | null;
  isEval(): boolean;
  toString(): string;
}

// Playwright's captureRawStack reads 50 frames, its own the first of them.
const FRAMES = 49;

/**
 * V8's call sites of our caller, not formatted as text: formatting every frame
 * (Node's prepareStackTrace) was ~40 % of naming a wrapped call, and a
 * snapshot names three (~0.8 ms of the server's ~10 ms a call before).
 */
function callSites(): CallSite[] {
  const { stackTraceLimit, prepareStackTrace } = Error;
  Error.stackTraceLimit = FRAMES;
  Error.prepareStackTrace = (_error, sites) => sites;
  try {
    const holder: { stack?: CallSite[] } = {};
    Error.captureStackTrace(holder, callSites);
    return holder.stack ?? [];
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    Error.prepareStackTrace = prepareStackTrace;
  }
}

// The frame's text as it reads in a stack, which Playwright parses.
const frameOf = (site: CallSite) => utils!.parseStackFrame(`    at ${site}`);

/**
 * The file Playwright's parse of the frame's text would give; undefined for a
 * frame it leaves out. A named function's frame reads `name (file:line:col)`;
 * the text of the others is parsed as Playwright does (an anonymous async
 * frame's "file" then starts with "async ", which is not playwright-core's).
 */
function fileOf(site: CallSite): string | undefined {
  const name = site.getFileName();
  if (name && site.getFunctionName() && !site.isEval() && !name.startsWith('node:') && !name.startsWith('internal')) return name.startsWith('file://') ? fileURLToPath(name) : name;
  return frameOf(site)?.file;
}

/** The raw name of the frame Playwright would name a call by, made where our caller was called. */
function upstreamName(): string | undefined {
  const dir = utils!.coreDir()!;
  const frames = callSites().flatMap((site) => {
    const file = fileOf(site);
    return file ? [{ site, ours: !file.startsWith(dir) }] : [];
  });
  let i = 0;
  while (i < frames.length && frames[i]!.ours) i++; // this file and the wrapper
  for (; i < frames.length - 1; i++) if (frames[i + 1]!.ours) return frameOf(frames[i]!.site)?.function;
  return undefined;
}

/**
 * The wrapper's runner, named now: call it synchronously on entry to the
 * wrapper, while the caller's frames are on the stack.
 */
export function callAsUpstream(): Call {
  if (factory === undefined) factory = makeFactory();
  if (!factory) return plain;
  // No name: the upstream's stack has no frame to name the call by, and its
  // error reads bare ("Error: …"); a runner without a name keeps it so, where
  // the plain one would have Playwright name it after the method we wrap.
  const call = factory();
  Object.defineProperty(call, 'name', { value: upstreamName() ?? '' });
  return call;
}
