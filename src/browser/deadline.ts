/** `work`'s value, or undefined once `ms` have passed; `work` itself is not cancelled. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let cancel = () => {};
  const deadline = new Promise<undefined>((resolve) => {
    const timer = setTimeout(resolve, ms);
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([work, deadline]).finally(cancel);
}

type Closable = { once(event: 'close', listener: () => void): unknown; off(event: 'close', listener: () => void): unknown };

/**
 * `work`'s value, or undefined once `target` (a context) closes: Playwright
 * never answers some calls in flight on a context closed meanwhile (newPage).
 */
export function untilClosed<T>(work: Promise<T>, target: Closable): Promise<T | undefined> {
  let listener = () => {};
  const closed = new Promise<undefined>((resolve) => {
    listener = () => resolve(undefined);
    target.once('close', listener);
  });
  return Promise.race([work, closed]).finally(() => target.off('close', listener));
}
