// The pauses of humanised input: uneven, within what people take.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const between = (min: number, max: number) => min + Math.random() * (max - min);

/** How long a key or a mouse button stays down: people hold one 50–150 ms; Playwright's default is none. */
export const keyHoldMs = () => Math.round(between(35, 95));
export const buttonHoldMs = () => Math.round(between(55, 140));
/** A quick tap, for an element the page keeps replacing: a longer hold lets the button up over its successor, and no click reaches either. */
export const tapHoldMs = () => Math.round(between(30, 50));

/**
 * One step of humanised input (a move, a wheel notch, a look at the element)
 * the page has not answered by then: its thread runs long tasks, and each
 * further step would wait out one. The rest is left to Playwright's plain
 * action, as the upstream's runs.
 */
export const STALL_MS = 1000;
