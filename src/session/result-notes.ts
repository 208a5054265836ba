// What a forwarded tool result says, and the notes we add to it: the upstream
// reports timeouts and crashes only as text in an error result.

/** The upstream's own deadline for a tool call, or a Playwright timeout inside it. */
export const TIMED_OUT = /Timeout \d+ms exceeded/;
export const CRASHED = /Target crashed/;
export const CRASH_NOTE = 'Note: the renderer of this tab crashed (the page ran out of memory or crashed its process); the browser and the session go on. Navigate to load a page again.';

/** The result with one more text block at its end. */
export function withNote<R extends { content?: unknown[] }>(result: R, text: string): R {
  return { ...result, content: [...(result.content ?? []), { type: 'text' as const, text }] };
}

/** A result's text blocks, joined. */
export function textOf(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((c) => ((c as { type?: string }).type === 'text' ? (c as { text: string }).text : '')).join('\n');
}
