import type { BrowserContext, Page } from 'playwright-core';

// A call the client cancels gets no answer, but the upstream's tool goes on
// to its end, as on the upstream. There a fill ends at once; here a
// humanised one types on for seconds in the background, its keys landing
// among those of the client's next calls (a text for one field typed into
// the next). Once its call is cancelled, the rest of the text goes in at
// once, as the upstream's fill puts it. Typing the client asked to be key
// by key (browser_type's slowly, browser_press_sequentially) goes on as the
// upstream's does.

const calls = new WeakMap<BrowserContext, { signal: AbortSignal; tool: string }>();

/** The tool call that runs now in this context: its signal aborts when the client cancels it. */
export function toolCallStarts(context: BrowserContext, signal: AbortSignal, tool: string): void {
  calls.set(context, { signal, tool });
}

/** The signal of the call running now in the page's context, read when an input starts. */
export function toolCallOf(page: Page): AbortSignal | undefined {
  return calls.get(page.context())?.signal;
}

/** The name of the tool running now in the page's context. */
export function toolNameOf(page: Page): string | undefined {
  return calls.get(page.context())?.tool;
}
