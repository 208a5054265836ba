import { loadedCoreBundle } from '../playwright-bundles.ts';

// Playwright's server races every evaluate, and many other waits, against its
// context's or frame's end (LongStandingScope). Each race formats a stack
// (`new Error().stack`) up front, to give the error it reports if that end
// comes first the frames of the call that waited. Almost no race ends that
// way, and formatting is the costly part of a stack: in 8 concurrent sessions
// taking snapshots it was ~0.7 ms of the server's ~7 ms of CPU per call, the
// largest single item of Playwright's own. V8 records an Error's frames when
// it is constructed and formats them when `stack` is first read, so keeping
// the Error and reading its stack only when a scope closes on a race gives
// that error the same text, and costs nothing otherwise.

interface ScopeLike {
  _terminatePromises: Map<TerminatePromise, LazyFrames | string[]>;
  _terminateError?: Error;
  _closeError?: Error;
  _isClosed: boolean;
}

interface TerminatePromise extends Promise<Error> {
  resolve(error: Error): void;
}

type LazyFrames = Error;

function framesOf(site: LazyFrames | string[]): string[] {
  return Array.isArray(site) ? site : (site.stack || '').split('\n');
}

// Playwright's cloneError (not exported), kept to the letter.
function cloneError(error: Error, frames: string[]): Error {
  const clone = new Error();
  clone.name = error.name;
  clone.message = error.message;
  clone.stack = [error.name + ':' + error.message, ...frames].join('\n');
  return clone;
}

let patched = false;

/** Playwright's scope races keep their caller's stack unformatted until it is needed (one patch per process). */
export function formatRaceStacksLazily(): void {
  if (patched) return;
  patched = true;
  const { iso } = loadedCoreBundle() as { iso: { LongStandingScope: { prototype: Record<string, unknown> }; ManualPromise: new () => TerminatePromise } };
  const { LongStandingScope, ManualPromise } = iso;
  const proto = LongStandingScope.prototype;
  if (typeof proto._race !== 'function' || typeof proto.close !== 'function') return;

  proto._race = async function (this: ScopeLike, promises: Promise<unknown>[], safe: boolean, defaultValue?: unknown) {
    const terminatePromise = new ManualPromise();
    const site = new Error();
    if (this._terminateError) terminatePromise.resolve(this._terminateError);
    if (this._closeError) terminatePromise.resolve(cloneError(this._closeError, framesOf(site)));
    this._terminatePromises.set(terminatePromise, site);
    try {
      return await Promise.race([terminatePromise.then((e) => (safe ? defaultValue : Promise.reject(e))), ...promises]);
    } finally {
      this._terminatePromises.delete(terminatePromise);
    }
  };

  proto.close = function (this: ScopeLike, error: Error) {
    this._isClosed = true;
    this._closeError = error;
    for (const [p, site] of this._terminatePromises) p.resolve(cloneError(error, framesOf(site)));
  };
}
