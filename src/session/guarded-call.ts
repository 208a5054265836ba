import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '../mcp-sdk.ts';
import type { SessionBrowser } from '../browser/session-browser.ts';
import { toolCallStarts } from '../browser/humanize/cancelled-calls.ts';
import type { Logger } from '../log.ts';
import { bundleCodeCacheReady } from '../bundle-code-cache.ts';
import { callDeadlineMs, currentTabCheckMs, forwardToolCall } from './forward-call.ts';
import type { HangWatch } from './hang-watch.ts';
import { isInputTool, NAVIGATION_TOOLS, USER_SCRIPT_TOOLS } from './tool-policy.ts';
import { userCodeOf } from './user-code.ts';
import { withStuckScriptsStopped } from './stuck-script-watch.ts';
import { CRASH_NOTE, CRASHED, textOf, TIMED_OUT, withNote } from './result-notes.ts';
import { retryAfterBrowserLoss, retryAfterClosingTab, retryAfterPageNavigation } from './call-retries.ts';

// A tool call on its way to the upstream, with what keeps the session going
// whatever the page does: the deadline, the stuck-script stops, the hang
// checks, the retries after a lost browser, a closing tab or a navigation,
// and the notes that say what happened.

export type ToolCallParams = { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } };
export type CallExtra = Parameters<typeof forwardToolCall>[2];

export interface GuardedCallSession {
  id: string;
  browser: SessionBrowser;
  hangs: HangWatch;
  log: Logger;
  upstream(): Client;
  navigationTimeoutMs: number;
  /** --shared-browser-context: browser_close leaves the browser to the other clients. */
  sharedBrowserContext: boolean;
}

export async function guardedCall(session: GuardedCallSession, params: ToolCallParams, extra: CallExtra): Promise<CallToolResult> {
  const { browser, hangs } = session;
  const closedAfterCancel = await hangs.pendingNote();
  const deadlineMs = callDeadlineMs(params.name, params.arguments, session.navigationTimeoutMs);
  const send = () => forwardWatched(session, params, extra, deadlineMs);
  const forward = USER_SCRIPT_TOOLS.has(params.name) ? () => asUserScript(browser, params, send) : send;
  const retry = { name: params.name, browser, forward, log: session.log, sessionId: session.id };
  // Only a snapshot cannot make the page log: it may share the last result's console flush.
  if (params.name !== 'browser_snapshot') browser.actionStarts();
  const sent = { at: performance.now(), browserRan: browser.running, closedTabs: browser.closedTabs };
  // Its humanised input (an input tool's, or the user's code's) hurries once the client cancels it.
  const context = await browser.currentContext();
  if (context) toolCallStarts(context, extra.signal, params.name);
  const inputEnds = isInputTool(params.name) ? await browser.inputStarts() : void (await browser.otherStarts());
  const navigation = NAVIGATION_TOOLS.has(params.name) ? await browser.navigationStarts() : undefined;
  let result: CallToolResult;
  let stuckNote: string | undefined;
  try {
    const currentTab = { afterMs: currentTabCheckMs(deadlineMs), run: (callEnded: AbortSignal) => hangs.duringCall(callEnded) };
    ({ value: result, note: stuckNote } = await withStuckScriptsStopped(browser, session.log, session.id, forward(), currentTab, navigation?.stopped));
    bundleCodeCacheReady();
    for (const retried of [retryAfterBrowserLoss, retryAfterClosingTab, retryAfterPageNavigation]) if (result.isError && !extra.signal.aborted) result = await retried(result, sent, retry);
  } finally {
    inputEnds?.();
    navigation?.ends();
  }
  const closedNow = result.isError && TIMED_OUT.test(textOf(result)) ? await hangs.afterTimeout() : undefined;
  for (const note of [closedAfterCancel(), stuckNote, closedNow]) if (note) result = withNote(result, note);
  if (result.isError && CRASHED.test(textOf(result))) result = withNote(result, CRASH_NOTE);
  // In this mode the upstream disposes its backend on browser_close but leaves
  // the browser up; closing it resets the upstream so the next call relaunches.
  // Under --shared-browser-context the upstream refuses to close, as do we.
  if (params.name === 'browser_close' && !session.sharedBrowserContext) await browser.relaunchNext();
  return result;
}

/** The user's own script keeps Playwright's user gesture, as on the upstream (browser/quiet-runtime/user-gesture.ts). */
async function asUserScript(browser: SessionBrowser, params: ToolCallParams, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  const ends = browser.userScriptStarts(await userCodeOf(params));
  try {
    return await run();
  } finally {
    ends();
  }
}

/**
 * A call the client cancels gets no answer; the page it left may never yield
 * again. The check starts on the abort itself, before the client's next
 * request (which may come in the same read) is handled.
 */
async function forwardWatched(session: GuardedCallSession, params: ToolCallParams, extra: CallExtra, deadlineMs: number): Promise<CallToolResult> {
  const onCancel = () => session.hangs.checkInBackground();
  extra.signal.addEventListener('abort', onCancel, { once: true });
  try {
    return await forwardToolCall(session.upstream(), params, extra, deadlineMs, session.browser.launches);
  } finally {
    extra.signal.removeEventListener('abort', onCancel);
  }
}
