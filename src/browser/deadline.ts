/** `work`'s value, or undefined once `ms` have passed; `work` itself is not cancelled. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let cancel = () => {};
  const deadline = new Promise<undefined>((resolve) => {
    const timer = setTimeout(resolve, ms);
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([work, deadline]).finally(cancel);
}

/** `work`'s value, or undefined once `signal` aborts (at once when it already has). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve(undefined);
  let listener = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    listener = () => resolve(undefined);
    signal.addEventListener('abort', listener, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', listener));
}

type Closable<E extends string> = { once(event: E, listener: () => void): unknown; off(event: E, listener: () => void): unknown };

/**
 * `work`'s value, or undefined once `target` ends (a context's 'close', a
 * browser's 'disconnected'): Playwright never answers some calls in flight
 * on a context or browser closed meanwhile (newPage).
 */
export function untilClosed<T, E extends string = 'close'>(work: Promise<T>, target: Closable<E>, event = 'close' as E): Promise<T | undefined> {
  let listener = () => {};
  const closed = new Promise<undefined>((resolve) => {
    listener = () => resolve(undefined);
    target.once(event, listener);
  });
  return Promise.race([work, closed]).finally(() => target.off(event, listener));
}
