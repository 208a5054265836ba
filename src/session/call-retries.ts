import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SessionBrowser } from '../browser/session-browser.ts';
import { pageAt } from '../browser/waiting-navigations.ts';
import type { Logger } from '../log.ts';
import { metrics } from '../metrics/metrics.ts';
import { NAVIGATION_INTERRUPTED, PAGE_CLOSED, PAGE_CLOSED_NOTE, textOf, withNote } from './result-notes.ts';

// A navigation Playwright gave up on as interrupted committed within ~0.1 s
// when Chromium carried it on (refresh loop, 2-core machine).
const INTERRUPTED_WAIT_MS = 3000;
// A refresh loop can cut a retry short too: with one retry 1 navigate away in 6 failed, with three 1 in 16 (2026-11-25).
const INTERRUPTED_RETRIES = 3;
// A busy renderer's tabs took ~3.5 s to go after the hang check closed them
// (a flood of 500 popups on 2 cores); past this the call's own error stands.
const CLOSING_WAIT_MS = 10_000;
// A call that failed later than this has used its time: its error stands.
const LATE_MS = 10_000;

/** What held when the call was sent. */
export interface SentCall {
  at: number;
  /** The browser ran (a call that launches one has lost none). */
  browserRan: boolean;
  /** SessionBrowser.closedTabs then. */
  closedTabs: number;
}

/**
 * One forwarded call, as the retries see it. Each retry is asked only about an
 * error result of a call the client has not cancelled (BridgeSession), and
 * returns it as it is or the result of one more try.
 */
export interface RetryableCall {
  name: string;
  browser: SessionBrowser;
  /** Sends the same call to the upstream again. */
  forward(): Promise<CallToolResult>;
  log: Logger;
  sessionId: string;
}

/**
 * The browser died under this call (killed, OOM, crash). Playwright learns
 * of a death asynchronously, so the call that first meets a dead browser
 * cannot be told from one it died under; both are retried once on a fresh
 * browser. The disconnect already reset our launcher and the upstream's
 * backend, so the retry launches anew. A fresh browser has one blank page:
 * actions on the lost page fail there instead of repeating.
 * Only for a call sent while the browser ran.
 */
export async function retryAfterBrowserLoss(result: CallToolResult, sent: SentCall, call: RetryableCall): Promise<CallToolResult> {
  if (!sent.browserRan || call.browser.running || call.name === 'browser_close') return result;
  call.log.warn(`session ${call.sessionId}: the browser exited during ${call.name}; relaunching and retrying the call once`);
  metrics.browserRelaunches.inc();
  return withNote(await call.forward(), 'Note: the browser of this session had exited unexpectedly; it was relaunched and this call retried on a fresh browser (open pages, cookies and storage of the old one are gone).');
}

/**
 * The upstream's current tab can be one this session asked to close (hung,
 * or a popup past --max-pages) that a busy browser has not closed yet: every
 * call on it is refused at once, and a call that raced such a close fails
 * with the same words. Such a call waits for those tabs to go and runs once
 * more on what is left. A call that failed late has used its time.
 */
export async function retryAfterClosingTab(result: CallToolResult, sent: SentCall, call: RetryableCall): Promise<CallToolResult> {
  if (performance.now() - sent.at >= LATE_MS || !PAGE_CLOSED.test(textOf(result)) || call.name === 'browser_close') return result;
  if (!(await call.browser.closingPagesGone(CLOSING_WAIT_MS, sent.closedTabs))) return result;
  return withNote(await call.forward(), PAGE_CLOSED_NOTE);
}

/**
 * A page that reloads itself in a loop (a meta refresh, location.reload()),
 * or the error page of a navigation that failed just before, starts a
 * navigation of its own while browser_navigate's begins, and Playwright gives
 * the navigate up at once ("interrupted by another navigation"), even when
 * Chromium goes on to load the URL asked for: following our own note
 * ("navigate elsewhere") failed 2 times in 3 on a refresh loop. Such a
 * navigate is sent again, with a note, once the first has had time to commit
 * (sent at once, the retry was itself cut short by the first), three times at most.
 */
export async function retryAfterPageNavigation(result: CallToolResult, sent: SentCall, call: RetryableCall): Promise<CallToolResult> {
  if (call.name !== 'browser_navigate') return result;
  let answer = result;
  for (let retry = 1; retry <= INTERRUPTED_RETRIES; retry++) {
    if (performance.now() - sent.at >= LATE_MS) return answer;
    const [, asked, other] = NAVIGATION_INTERRUPTED.exec(textOf(answer)) ?? [];
    if (asked === undefined || asked === other) return answer;
    const context = await call.browser.currentContext();
    if (context) await pageAt(context, asked, INTERRUPTED_WAIT_MS);
    const times = retry === 1 ? 'once more' : 'again';
    answer = withNote(await call.forward(), `Note: the page started a navigation of its own (to ${other}) as this one began (a refresh or redirect loop, or the error page of an earlier navigation), which cut it short; the navigation to ${asked} was sent ${times}.`);
  }
  return answer;
}
