import type { Browser, CDPSession } from 'playwright-core';
import type { Logger } from '../log.ts';
import { withDeadline } from './deadline.ts';

// A headed Chromium answers window.print() with its print preview, a dialog
// of the browser's own (chrome://print) that holds the calling script until
// someone presses Cancel or Print: the click that called print() does not
// return, and the page's script stays stopped. An agent can neither see nor
// reach that dialog; the upstream's click then times out and its next
// snapshot waits 30 s. We press Cancel, as a user without a printer would, so
// the page goes on as it does headless (where print() returns at once).
// Only the preview's own Cancel button does it: closing its target, Escape
// or its `dialogClose` message leave print() waiting (Chromium 156).

/** One note for all the dialogs since the last call: a page may print again from its afterprint. */
export function printNote(times: number): string {
  return `Note: the page opened the print dialog (window.print())${times > 1 ? ` ${times} times` : ''}; ${times > 1 ? 'each was' : 'it was'} cancelled, as a user without a printer would, so the page could go on. For a copy of the page, use browser_take_screenshot, or browser_pdf_save (with --caps pdf).`;
}

const PREVIEW_URL = 'chrome://print/';
/** The preview draws its button strip once its page has loaded (~0.9 s here); longer means it changed. */
const BUTTON_WAIT_MS = 8_000;

// Runs in the preview's own page, never in a web page.
const PRESS_CANCEL = `new Promise((resolve) => {
  const started = Date.now();
  const tick = () => {
    const app = document.querySelector('print-preview-app');
    const strip = app?.shadowRoot?.querySelector('print-preview-sidebar')?.shadowRoot?.querySelector('print-preview-button-strip');
    const cancel = strip?.shadowRoot?.querySelector('.cancel-button');
    // The answer goes first: the press closes this page, which may end before an answer sent after it.
    if (cancel) { resolve('pressed'); setTimeout(() => cancel.click(), 20); }
    else if (Date.now() - started > ${BUTTON_WAIT_MS}) resolve('no cancel button');
    else setTimeout(tick, 50);
  };
  tick();
})`;

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

export interface PrintPreviewWatch {
  /**
   * Waits (at most `ms`) for the presses under way, so the result of a call
   * that print() held carries the note: on a loaded machine that call can end
   * before the preview's answer reaches us.
   */
  settled(ms: number): Promise<void>;
}

/**
 * Cancels every print preview the browser opens, and tells `onCancelled`.
 * Headed browsers only (headless Chromium has no preview). The watch runs on a
 * browser-level DevTools session of its own, which no page can observe.
 */
export function cancelPrintPreviews(browser: Browser, onCancelled: () => void, log: Logger): PrintPreviewWatch {
  const pressing = new Set<Promise<void>>();
  void watch(browser, log, (press) => {
    const done = press.then(
      (outcome) => {
        if (outcome === 'pressed') onCancelled();
        else log.debug(`a print preview stays open: ${outcome}`);
      },
      (error: Error) => log.debug(`a print preview stays open: ${error.message}`),
    );
    pressing.add(done);
    void done.finally(() => pressing.delete(done));
  });
  return { settled: async (ms) => void (pressing.size ? await withDeadline(Promise.all(pressing), ms) : undefined) };
}

async function watch(browser: Browser, log: Logger, onPress: (press: Promise<string>) => void): Promise<void> {
  let cdp: CDPSession;
  try {
    cdp = await browser.newBrowserCDPSession();
  } catch (error) {
    log.debug(`print previews are not watched: ${(error as Error).message}`);
    return;
  }
  const handled = new Set<string>();
  const onTarget = ({ targetInfo }: { targetInfo: TargetInfo }) => {
    if (targetInfo.type !== 'page' || !targetInfo.url.startsWith(PREVIEW_URL) || handled.has(targetInfo.targetId)) return;
    handled.add(targetInfo.targetId);
    onPress(pressCancel(cdp, targetInfo.targetId));
  };
  // The preview starts as an "other" target with no URL and becomes the page chrome://print/.
  cdp.on('Target.targetCreated', onTarget);
  cdp.on('Target.targetInfoChanged', onTarget);
  cdp.on('Target.targetDestroyed', ({ targetId }: { targetId: string }) => void handled.delete(targetId));
  await cdp.send('Target.setDiscoverTargets', { discover: true, filter: [{ type: 'page' }, { type: 'other' }] }).catch((error: Error) => log.debug(`print previews are not watched: ${error.message}`));
}

// Playwright's CDPSession speaks to one target; the preview is reached through
// it with the (non-flat) Target messages, whose answer comes as an event.
async function pressCancel(cdp: CDPSession, targetId: string): Promise<string> {
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  let finish = (_outcome: string) => {};
  const answered = new Promise<string>((resolve) => {
    const timer = setTimeout(() => finish('no answer from the preview'), BUTTON_WAIT_MS + 2_000);
    const onMessage = ({ sessionId: from, message }: { sessionId: string; message: string }) => {
      if (from !== sessionId) return;
      const reply = JSON.parse(message) as { id?: number; result?: { result?: { value?: unknown } }; error?: { message?: string } };
      if (reply.id === 1) finish(typeof reply.result?.result?.value === 'string' ? reply.result.result.value : (reply.error?.message ?? 'no answer from the preview'));
    };
    // Its page closed, or the page that printed went away.
    const onGone = ({ targetId: gone }: { targetId: string }) => {
      if (gone === targetId) finish('it closed before an answer');
    };
    finish = (outcome: string) => {
      clearTimeout(timer);
      cdp.off('Target.receivedMessageFromTarget', onMessage);
      cdp.off('Target.targetDestroyed', onGone);
      resolve(outcome);
    };
    cdp.on('Target.receivedMessageFromTarget', onMessage);
    cdp.on('Target.targetDestroyed', onGone);
  });
  await cdp
    .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: PRESS_CANCEL, awaitPromise: true, returnByValue: true } }) })
    .catch((error: Error) => finish(error.message));
  return answered;
}
