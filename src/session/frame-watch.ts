import type { SessionBrowser } from '../browser/session-browser.ts';
import type { Logger } from '../log.ts';

// A call this long under way may be waiting on a frame whose script never
// yields (browser/stuck-frames.ts); most calls are done well before.
const FIRST_CHECK_MS = 3000;
// Between checks while the call goes on: a frame's script may start again.
const NEXT_CHECK_MS = 5000;

/**
 * While a tool call runs past FIRST_CHECK_MS, stops the script of frames in
 * other renderers that no longer answer, so the call goes on; the note says
 * which frames.
 */
export async function withStuckFramesStopped<T>(browser: SessionBrowser, log: Logger, sessionId: string, call: Promise<T>): Promise<{ value: T; note: string | undefined }> {
  const stopped = new Set<string>();
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    if (done || !browser.running) return;
    for (const url of await browser.stopStuckFrames()) stopped.add(url);
    if (!done) timer = setTimeout(check, NEXT_CHECK_MS);
  };
  timer = setTimeout(check, FIRST_CHECK_MS);
  try {
    const value = await call;
    if (stopped.size) log.warn(`session ${sessionId}: stopped the script of ${stopped.size} unresponsive frame(s): ${[...stopped].slice(0, 5).join(', ')}`);
    return { value, note: stopped.size ? noteFor([...stopped]) : undefined };
  } finally {
    done = true;
    clearTimeout(timer);
  }
}

function noteFor(urls: string[]): string {
  const named = urls.length > 1 ? `frames ${urls.slice(0, 5).join(', ')}${urls.length > 5 ? ` and ${urls.length - 5} more` : ''}` : `frame ${urls[0]}`;
  return `Note: the ${named} stopped responding (a script that never yields, in a renderer of ${urls.length > 1 ? 'their' : 'its'} own), which held up this call; ${urls.length > 1 ? 'their scripts were' : 'its script was'} stopped so the page could be read. The rest of the page was not touched.`;
}
