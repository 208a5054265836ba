import type { SessionBrowser } from '../browser/session-browser.ts';
import type { Logger } from '../log.ts';
import { afterCallTime } from './forward-call.ts';
import { named } from './result-notes.ts';

// A call this long under way may be waiting on a frame or a background tab
// whose script never yields (browser/stuck-scripts.ts); most calls are done well before.
const FIRST_CHECK_MS = 3000;
// Between checks while the call goes on: a script may start again.
const NEXT_CHECK_MS = 5000;

/** The current tab's check while a call goes on: after `afterMs` of the call's own time, the hang check's note when it closed pages. */
export interface CurrentTabCheck {
  afterMs: number | undefined;
  /** `callEnded` aborts once the call has its answer: a check still probing then closes nothing. */
  run(callEnded: AbortSignal): Promise<string | undefined>;
}

/**
 * While a tool call runs past FIRST_CHECK_MS, stops the script of frames in
 * other renderers, and of tabs other than the current one, that no longer
 * answer, so the call goes on; the note says which (and `leftStopped`, a
 * page a navigation leaves, stopped before it). Past `currentTab.afterMs`
 * the current tab is checked too: closing it ends the call.
 */
export async function withStuckScriptsStopped<T>(browser: SessionBrowser, log: Logger, sessionId: string, call: Promise<T>, currentTab?: CurrentTabCheck, leftStopped?: string): Promise<{ value: T; note: string | undefined }> {
  let currentTabNote: Promise<string | undefined> | undefined;
  // A call that answers while its page is being probed got that answer from the page: the page is not stuck.
  const callEnded = new AbortController();
  const disarm = currentTab?.afterMs === undefined ? undefined : afterCallTime(currentTab.afterMs, browser.launches, () => void (currentTabNote = currentTab.run(callEnded.signal).catch(() => undefined)));
  const frames = new Set<string>();
  const tabs = new Set<string>();
  // The tab a navigation leaves, stopped before it was sent (browser/stuck-scripts.ts).
  const left = new Set<string>(leftStopped === undefined ? [] : [leftStopped]);
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    if (done || !browser.running) return;
    const stopped = await browser.stopStuckScripts();
    for (const url of stopped.frames) frames.add(url);
    for (const url of stopped.tabs) tabs.add(url);
    for (const url of stopped.left) left.add(url);
    if (!done) timer = setTimeout(check, NEXT_CHECK_MS);
  };
  timer = setTimeout(check, FIRST_CHECK_MS);
  try {
    const value = await call.finally(() => callEnded.abort());
    const all = [...frames, ...tabs, ...left];
    if (all.length) log.warn(`session ${sessionId}: stopped the script of ${all.length} unresponsive frame(s) or tab(s): ${all.slice(0, 5).join(', ')}`);
    const notes = [frames.size ? frameNote([...frames]) : undefined, tabs.size ? tabNote([...tabs]) : undefined, left.size ? leftNote([...left]) : undefined, await currentTabNote].filter((note) => note !== undefined);
    return { value, note: notes.length ? notes.join('\n') : undefined };
  } finally {
    done = true;
    clearTimeout(timer);
    disarm?.();
  }
}

const frameNote = (urls: string[]): string =>
  `Note: the frame${named(urls)} stopped responding (a script that never yields, in a renderer of ${urls.length > 1 ? 'their' : 'its'} own), which held up this call; ${urls.length > 1 ? 'their scripts were' : 'its script was'} stopped so the page could be read. The rest of the page was not touched.`;

const tabNote = (urls: string[]): string =>
  `Note: the tab${named(urls)} stopped responding (a script that never yields), which held up this call; ${urls.length > 1 ? 'their scripts were' : 'its script was'} stopped, and ${urls.length > 1 ? 'they stay' : 'it stays'} open. The current tab was not touched.`;

const leftNote = (urls: string[]): string =>
  `Note: the page${named(urls)} stopped responding (a script that never yields, or one that runs while the page unloads), which held up leaving it; its script was stopped so the navigation could go on.`;
