/**
 * `work`'s value, or undefined once `subscribe` fires its callback; what
 * `subscribe` returns undoes the subscription when either comes first.
 * `work` itself is not cancelled.
 */
function until<T>(work: Promise<T>, subscribe: (fire: () => void) => () => void): Promise<T | undefined> {
  let unsubscribe = () => {};
  const fired = new Promise<undefined>((resolve) => {
    unsubscribe = subscribe(() => resolve(undefined));
  });
  return Promise.race([work, fired]).finally(unsubscribe);
}

/** `work`'s value, or undefined once `ms` have passed; `work` itself is not cancelled. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  return until(work, (fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  });
}

/** `work`'s value, or undefined once `signal` aborts (at once when it already has). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve(undefined);
  return until(work, (fire) => {
    signal.addEventListener('abort', fire, { once: true });
    return () => signal.removeEventListener('abort', fire);
  });
}

type Closable<E extends string> = { once(event: E, listener: () => void): unknown; off(event: E, listener: () => void): unknown };

/**
 * `work`'s value, or undefined once `target` ends (a context's 'close', a
 * browser's 'disconnected'): Playwright never answers some calls in flight
 * on a context or browser closed meanwhile (newPage).
 */
export function untilClosed<T, E extends string = 'close'>(work: Promise<T>, target: Closable<E>, event = 'close' as E): Promise<T | undefined> {
  return until(work, (fire) => {
    target.once(event, fire);
    return () => target.off(event, fire);
  });
}
