import type { BrowserContext, Page } from 'playwright-core';
import { askClose, closeAskedFor } from './closing-pages.ts';
import { untilAborted, withDeadline } from './deadline.ts';
import { navigationStillWaiting, navigationWaitingFor, watchNavigations } from './waiting-navigations.ts';
import { hasCrashed, watchCrashes } from './crashed-tabs.ts';
import { commitsWithin, watchCommits } from './document-commits.ts';
import { makeCurrentTab, openDialogOf, watchDialogs } from './open-dialogs.ts';
import { watchRenderers } from './renderer-activity.ts';
import { learnTargetId, rendererAnswers, targetIdOf, type ScriptStops } from './script-stop.ts';
import { ownSession } from './unrecorded.ts';

// Chromium gives a stuck renderer's unload 500 ms, then closes its page anyway
// (measured: ~520 ms for an endless loop); a page that takes longer is kept
// busy rather than stuck, and is left closing in the background.
const CLOSE_MS = 2000;

type PageState = 'answers' | 'lately' | 'stuck' | 'rootless' | 'reloading' | 'navigating' | 'held' | 'waiting' | 'starved';

// How long the check watches an answering page's document for a replacement.
const RELOAD_WATCH_MS = 500;
// A refresh loop commits a document at least this often while a call waits on
// it; one slower lets a snapshot settle between two (and a 500 ms watch met it
// less than one time in four anyway).
const QUIET_DOCUMENT_MS = 2000;
// A main-frame navigation waiting this long for its response is a silent server's, not a loop's next document.
const FRESH_NAVIGATION_MS = 1000;
// The second look at an answering page's document: a page reloading itself or
// left without a root answers it at once; one of long tasks only once the
// task under way ends (seconds), and it has answered the probe: no wait for it.
const SECOND_LOOK_MS = 1000;
// A renderer that ran Playwright's script lately and does not answer within this
// is running a task of the page's own (a page of long tasks): not waited for.
const BUSY_ANSWER_MS = 250;
// A dialog holds every page of its renderer until it is answered, and no silent
// page is closed while one is open (below), so while one is, a short look tells
// the pages that answer: the full probe only waited on the pages the dialog
// held (a select whose change handler alerted timed out 3 s after the
// upstream's, with --humanize=false, the probe waiting on its page).
const DIALOG_HELD_PROBE_MS = 250;

// A renderer whose main thread never yields (an endless loop in the page)
// answers no CDP command; asking it to evaluate `0` tells such a page apart.
// A page that answers can still make every snapshot wait until the call times
// out: its script removed the root element, or it replaces its own document
// over and over (a refresh loop). The DOM and Page domains tell both without
// running anything in the page. A page whose navigation waits for its server
// answers nothing either (waiting-navigations.ts): it is not stuck.
async function probe(context: BrowserContext, page: Page, probeMs: number, stops: ScriptStops | undefined, trustRecent: boolean): Promise<PageState> {
  const silent = (): PageState => (page.isClosed() ? 'answers' : navigationWaitingFor(page) ? 'navigating' : 'stuck');
  // The browser holds every command for this page until the response comes: a probe would only wait out its deadline
  // (a navigate to a server that never answers timed out 3 s after the upstream's). A navigation sent a moment ago
  // may be a refresh loop's next document, answered in milliseconds: it is waited for (up to FRESH_NAVIGATION_MS).
  if (await navigationStillWaiting(page, FRESH_NAVIGATION_MS)) return 'navigating';
  const session = await withDeadline(ownSession(context, page).catch(() => undefined), probeMs);
  if (!session) return silent();
  // Ran Playwright's script within the time the probe would give it: busy with tasks of its own (a
  // click on a page of 2.5 s tasks timed out 0.5-2 s after its last answer), asked only briefly.
  const targetId = trustRecent && stops ? await learnTargetId(page, session, probeMs) : undefined;
  const lately = !!targetId && (stops!.sinceAnswer(targetId) ?? Infinity) < probeMs;
  // Seen twice, RELOAD_WATCH_MS apart: a document being replaced is rootless for a moment.
  const look = async (withinMs: number) => {
    const [tree, document] = await Promise.all([
      withDeadline(session.send('Page.getFrameTree').catch(() => undefined), withinMs),
      withDeadline(session.send('DOM.getDocument', { depth: 1 }).catch(() => undefined), withinMs),
    ]);
    return { loader: tree?.frameTree.frame.loaderId, rootless: !!document && !document.root.children?.some((node) => node.nodeType === 1) };
  };
  try {
    // Asked with the probe: a page of long tasks answers each only once the task under way ends.
    const first = look(probeMs);
    if (!(await rendererAnswers(session, lately ? BUSY_ANSWER_MS : probeMs))) {
      if (lately) return 'lately';
      // The browser answers this itself: which target to stop the script of, should the page be closed as stuck.
      if (!targetId) await learnTargetId(page, session, probeMs);
      return silent();
    }
    const before = await first;
    // A page whose main frame committed at most once lately (the navigate that opened it) is not replacing its document: a loop
    // commits again and again. The watch cost every timed-out call 0.5 s, and each call timed out within 2 s of its page's
    // navigate (a short --timeout-action) answered that much after the upstream's.
    if (!before.rootless && commitsWithin(page, QUIET_DOCUMENT_MS) <= 1) return 'answers';
    await new Promise((resolve) => setTimeout(resolve, RELOAD_WATCH_MS));
    const after = await look(SECOND_LOOK_MS);
    if (before.loader && after.loader && before.loader !== after.loader) return 'reloading';
    return before.rootless && after.rootless ? 'rootless' : 'answers';
  } finally {
    void session.detach().catch(() => {});
  }
}

/**
 * Whether the page's document has not fired its load event: a renderer silent
 * then may be parsing or laying out a document of tens of MB rather than
 * running a script that never yields (Playwright's client keeps the frame's
 * load states; not public API, so unknown reads as loaded).
 */
function stillLoading(page: Page): boolean {
  const states = (page.mainFrame() as unknown as { _loadStates?: unknown })._loadStates;
  return states instanceof Set && !states.has('load');
}

/** Follows what the check needs to tell a silent page from a stuck one (waiting navigations, open dialogs, crashed renderers) and a reloading one (document commits). */
export function watchForHangCheck(context: BrowserContext): void {
  watchNavigations(context);
  watchDialogs(context);
  watchCrashes(context);
  watchCommits(context);
}

/** Pages found silent while the browser worked for them or the machine had no CPU for them, since when (left open until WAITING_LIMIT_MS). */
const waitingSince = new WeakMap<Page, number>();
// A page still silent this long after it was first left open is closed, whoever keeps the machine busy (over HTTP, another session's browser counts too). A screenshot of a page 150,000 px tall kept the browser busy through two checks (~12 s).
const WAITING_LIMIT_MS = 30_000;

/** What a check found: stuck pages it closed or is still closing, and answering pages no snapshot can settle on. */
export interface HungPages {
  closed: string[];
  closing: string[];
  /** Of those closed or closing, the ones whose document had not finished loading (no load event): busy parsing or laying it out, or running a script of it. */
  loading: string[];
  /** Pages that answer but have no root element (left open: the page may add one back). */
  rootless: string[];
  /** Pages that answer but replaced their document while watched (left open). */
  reloading: string[];
  /** Pages whose navigation still waits for a response (left open), with the URL it waits for; `now()`: still waiting for it. */
  navigating: { page: string; waitingFor: string; now(): boolean }[];
  /** Pages that did not answer while no renderer ran and the browser's own processes did (waiting on it: not stuck; left open up to 30 s). */
  waiting: string[];
  /** Pages that did not answer while the machine had no CPU for their renderer (it waited for one most of the time; left open up to 30 s). */
  starved: string[];
  /** Open JavaScript dialogs, when pages were silent while one was open (none of them closed); the first one's tab is made current. `now()`: still open. */
  dialogs: { page: string; type: string; message: string; current: boolean; now(): boolean }[];
  /** Pages busy when asked whose renderer had run Playwright's script within probeMs (trustRecent): left open, unless a later check finds them stuck. */
  unconfirmed: string[];
}

export interface HangCheckOptions {
  probeMs: number;
  stops?: ScriptStops;
  cancelled?: AbortSignal;
  /** A page whose renderer ran Playwright's script within probeMs and is busy now is not waited for, but listed in `unconfirmed`. */
  trustRecent?: boolean;
}

/** A check that found nothing (no browser, or it failed). */
export const NO_HUNG_PAGES: HungPages = { closed: [], closing: [], loading: [], rootless: [], reloading: [], navigating: [], waiting: [], starved: [], dialogs: [], unconfirmed: [] };

/**
 * Closes the pages whose renderer stopped answering (the browser kills the
 * renderer), so the session goes on instead of timing out call after call.
 * All pages are probed and closed at once, so the whole takes at most
 * probeMs * 6 + RELOAD_WATCH_MS + CLOSE_MS however many tabs a page opened
 * (a page that answers does so in milliseconds: ~0.5 s, plus the close). A page kept busy
 * rather than stuck (a flood of history entries) may take the browser longer
 * to close: its close goes on in the background and it is reported as closing.
 * A blank page is opened when no page would be left (`reopen`, the default), so the upstream always
 * has a tab to go on with once the hung ones are gone.
 */
export async function closeUnresponsivePages(context: BrowserContext, options: HangCheckOptions & { reopen?: boolean }): Promise<HungPages> {
  const pages = context.pages().filter((page) => !page.isClosed());
  const probeMs = pages.some((page) => openDialogOf(page)) ? Math.min(options.probeMs, DIALOG_HELD_PROBE_MS) : options.probeMs;
  // A page already asked to close (by an earlier check, or as a popup past
  // --max-pages) is not probed; one an earlier check asked is not waited for again.
  const already = pages.filter((page) => closeAskedFor(page) === 'unresponsive');
  const renderers = watchRenderers();
  // A crashed tab answers nothing until its next navigation, as the upstream keeps it: not probed.
  const probing = Promise.all(pages.map((page) => (closeAskedFor(page) || hasCrashed(page) ? 'answers' : probe(context, page, probeMs, options.stops, !!options.trustRecent))));
  // Cancelled while probing: nothing is closed and nothing waits for the probes (each ends by its own deadline).
  const probed = await untilAborted(probing, options.cancelled);
  // Silent while no renderer ran and the browser itself worked, or while the machine ran something else: not stuck.
  const silence = await renderers.stop();
  if (!probed || options.cancelled?.aborted) return NO_HUNG_PAGES;
  // A dialog holds every page of its renderer (open-dialogs.ts), and which pages
  // share one is not known here: while one is open, no silent page is closed.
  const withDialog = pages.flatMap((page) => {
    const dialog = openDialogOf(page);
    return dialog ? [{ page, dialog }] : [];
  });
  const now = performance.now();
  const states = probed.map((state, i): PageState => {
    if (state !== 'stuck') return state;
    if (withDialog.length) return 'held';
    if (!silence || now - (waitingSince.get(pages[i]!) ?? now) >= WAITING_LIMIT_MS) return state;
    return silence === 'starved' ? 'starved' : 'waiting';
  });
  pages.forEach((page, i) => (states[i] === 'waiting' || states[i] === 'starved' ? waitingSince.set(page, waitingSince.get(page) ?? now) : waitingSince.delete(page)));
  const hung = pages.filter((_, i) => states[i] === 'stuck');
  const urlsIn = (state: PageState) => pages.filter((_, i) => states[i] === state).map((page) => page.url());
  const urls = new Map([...already, ...hung].map((page) => [page, page.url()]));
  // Read before the close, which ends the load either way.
  const loading = hung.filter(stillLoading).map((page) => urls.get(page)!);
  // A script that never yields goes on while its page closes (Chromium waits for its unload, and a
  // renderer lives on while any of its pages does): one opening popups in a loop opens more meanwhile.
  const stops = options.stops;
  if (stops && hung.length) stops.stop(new Set((await Promise.all(hung.map((page) => targetIdOf(context, page, probeMs)))).filter((id) => id !== undefined)));
  await withDeadline(Promise.all(hung.map((page) => askClose(page, 'unresponsive'))), CLOSE_MS);
  const closing = [...already, ...hung].filter((page) => !page.isClosed());
  if (options.reopen !== false && hung.length && context.pages().every((page) => closeAskedFor(page))) {
    const blank = context.newPage().catch(() => undefined);
    // While a close is still under way the call has waited long enough: the tab comes when it comes.
    if (!closing.length) await withDeadline(blank, CLOSE_MS);
  }
  // A navigation answered since its probe waits no more: nothing to say about it.
  const navigating = pages.flatMap((page, i) => {
    const waitingFor = states[i] === 'navigating' ? navigationWaitingFor(page) : undefined;
    return waitingFor ? [{ page: page.url(), waitingFor, now: () => !page.isClosed() && navigationWaitingFor(page) === waitingFor }] : [];
  });
  const held = states.includes('held');
  const current = held && withDialog[0] ? await makeCurrentTab(withDialog[0].page) : false;
  const dialogs = held ? withDialog.map(({ page, dialog }, i) => ({ page: page.url(), type: dialog.type(), message: dialog.message(), current: i === 0 && current, now: () => !page.isClosed() && openDialogOf(page) === dialog })) : [];
  return { closed: hung.filter((page) => page.isClosed()).map((page) => urls.get(page)!), closing: closing.map((page) => urls.get(page)!), loading, rootless: urlsIn('rootless'), reloading: urlsIn('reloading'), navigating, waiting: urlsIn('waiting'), starved: urlsIn('starved'), dialogs, unconfirmed: urlsIn('lately') };
}
