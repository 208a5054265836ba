// What a forwarded tool result says, and the notes we add to it: the upstream
// reports timeouts and crashes only as text in an error result.

/** The upstream's own deadline for a tool call, or a Playwright timeout inside it. */
export const TIMED_OUT = /Timeout \d+ms exceeded/;
export const CRASHED = /Target crashed|Page crashed|page crashed!/;
/** Playwright's answer on a page that is closed or being closed. */
export const PAGE_CLOSED = /Target page, context or browser has been closed/;
export const PAGE_CLOSED_NOTE = 'Note: this call first met a tab the session was still closing (it had stopped responding, or it was a popup past --max-pages); it ran again once that tab was gone.';
/** Playwright's words when another navigation started in the page before the one asked for committed. */
export const NAVIGATION_INTERRUPTED = /Navigation to "([^"]*)" is interrupted by another navigation to "([^"]*)"/;
export const CRASH_NOTE = 'Note: the renderer of this tab crashed (the page ran out of memory or crashed its process); the browser and the session go on. Navigate to load a page again.';

/** The result with one more text block at its end. */
export function withNote<R extends { content?: unknown[] }>(result: R, text: string): R {
  return { ...result, content: [...(result.content ?? []), { type: 'text' as const, text }] };
}

/** A result's text blocks, joined. */
export function textOf(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((c) => ((c as { type?: string }).type === 'text' ? (c as { text: string }).text : '')).join('\n');
}

/** The URLs a note names, after a singular noun ("the page" + this): five at most, then how many more. */
export const named = (urls: string[]): string => (urls.length > 5 ? `s ${urls.slice(0, 5).join(', ')} and ${urls.length - 5} more` : urls.length > 1 ? `s ${urls.join(', ')}` : ` ${urls[0]}`);
