/** `work`'s value, or undefined once `ms` have passed; `work` itself is not cancelled. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let cancel = () => {};
  const deadline = new Promise<undefined>((resolve) => {
    const timer = setTimeout(resolve, ms);
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([work, deadline]).finally(cancel);
}
