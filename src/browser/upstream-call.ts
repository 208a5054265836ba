import path from 'node:path';
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
  captureRawStack(): string[];
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

/** The raw name of the frame Playwright would name a call by, made where our caller was called. */
function upstreamName(): string | undefined {
  const dir = utils!.coreDir()!;
  const frames = utils!.captureRawStack().map((line) => utils!.parseStackFrame(line)).filter((frame): frame is Frame => !!frame?.file);
  const ours = (frame: Frame) => !frame.file.startsWith(dir);
  let i = 0;
  while (i < frames.length && !ours(frames[i]!)) i++; // Playwright's stack capture
  while (i < frames.length && ours(frames[i]!)) i++; // this file and the wrapper
  for (; i < frames.length - 1; i++) if (ours(frames[i + 1]!)) return frames[i]!.function;
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
