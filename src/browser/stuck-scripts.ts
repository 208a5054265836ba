import type { BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import { openDialogOf } from './open-dialogs.ts';
import { askTargetInfo, rendererAnswer, targetIdOf, type ScriptStops } from './script-stop.ts';
import { hasCrashed } from './crashed-tabs.ts';
import { tabBeingLeft } from './leaving-tab.ts';
import { isCurrentTab } from './upstream-tabs.ts';
import { navigationWaitingFor } from './waiting-navigations.ts';
import { ownSession } from './unrecorded.ts';

// Renderers that hold up a call without being its page. A frame of another
// site runs in a renderer of its own (an out-of-process iframe); a popup of
// another site too. When its script never yields, the current page still
// answers, so no call times out and the hang check never runs, yet a call
// waits on it: every snapshot waits for that frame until Playwright gives it
// up after 30 s and leaves it out, and every result that lists the tabs reads
// that popup's title, with no deadline (the upstream: a navigate, a snapshot,
// a wait of 2 s, each ~30 s with such a frame, measured 2026-11-28; with such
// a popup, no answer at all). An unautomated browser shows the rest of the
// page meanwhile; here that script is stopped, as a page found stuck is, and
// the call goes on. The current tab is left to the hang check (hang-recovery.ts),
// unless a navigation is leaving it (leaving-tab.ts).

/**
 * Each renderer is given this long to evaluate `0`: one busy for longer is
 * taken as stuck. Long enough that a heavy start on a busy machine is not
 * (Chromium itself calls a renderer hung after 15 s of no answer to input),
 * short against the 30 s the call would otherwise wait.
 */
const PROBE_MS = 4000;

/** Frames and tabs whose script was stopped, by URL. */
export interface StoppedScripts {
  frames: string[];
  tabs: string[];
  /** The current tab a navigation is leaving, whose old document held it up. */
  left: string[];
}

/** A round that stopped nothing (a dialog open, the current tab silent too, no browser). */
export const NOTHING_STOPPED: StoppedScripts = { frames: [], tabs: [], left: [] };

/** A question put to a frame's or page's renderer, its session kept open until the round ends. */
interface Probe {
  url: string;
  target: Frame | Page;
  session: CDPSession;
  /** Whether the renderer has answered the question yet. */
  answered(): boolean;
}

/**
 * Asks the renderer behind `target` to evaluate `0` and gives it PROBE_MS;
 * undefined when no session opens (a frame in its parent's renderer, which
 * Playwright refuses one for, or a target gone).
 */
async function probe(context: BrowserContext, target: Frame | Page): Promise<Probe | undefined> {
  const session = await withDeadline(ownSession(context, target).catch(() => undefined), PROBE_MS);
  if (!session) return undefined;
  let answered = false;
  // The question stays open past PROBE_MS: a late answer clears the target before a stop.
  const reply = rendererAnswer(session).then(() => void (answered = true));
  await withDeadline(reply, PROBE_MS);
  return { url: target.url(), target, session, answered: () => answered };
}

/** The probes whose renderer is still silent and whose target id is known. */
async function stillSilent(probes: Probe[]): Promise<(Probe & { targetId: string })[]> {
  const silent = probes.filter((found) => !found.answered());
  const ids = await Promise.all(silent.map(async (found) => (await askTargetInfo(found.session, PROBE_MS))?.targetId));
  // Asking took time: one that answered meanwhile is not stuck.
  return silent.flatMap((found, i) => (ids[i] && !found.answered() ? [{ ...found, targetId: ids[i] }] : []));
}

/**
 * Stops the script of every out-of-process frame, and every tab but the
 * current one (unless a navigation is leaving it), whose renderer does not answer (on Playwright's own DevTools
 * session, which the renderer answers between two statements). Bounded:
 * 5 × PROBE_MS at most, however many are probed. `elsewhere`: the session's
 * current tab when it is in another of its contexts (isolated-contexts.ts),
 * asked as the reference in its place.
 */
export async function stopStuckScripts(context: BrowserContext, stops: ScriptStops, elsewhere?: Page): Promise<StoppedScripts> {
  // A crashed tab is silent, not stuck: there is no script to stop.
  const pages = context.pages().filter((page) => !page.isClosed() && !hasCrashed(page));
  // An alert in a frame (or in a page sharing its renderer) holds that renderer until answered: not stuck.
  // Which renderers a dialog holds is not known here, so while one is open nothing is stopped, as no page is closed.
  if (pages.some((page) => openDialogOf(page))) return NOTHING_STOPPED;
  const frames = pages.flatMap((page) => page.frames().filter((frame) => frame.parentFrame() && !frame.isDetached()));
  // A tab whose navigation waits for its server answers nothing until it commits: waiting, not stuck.
  // Once the response to a navigation away has come, what holds it is the old document's script.
  const left = tabBeingLeft(context);
  const tabs = pages.filter((page) => (page === left || !isCurrentTab(page)) && !navigationWaitingFor(page));
  const probeAll = async (targets: (Frame | Page)[]) => (await Promise.all(targets.map((target) => probe(context, target)))).filter((found) => found !== undefined);
  const [frameProbes, tabProbes] = await Promise.all([probeAll(frames), probeAll(tabs)]);
  const probes = [...frameProbes, ...tabProbes];
  try {
    if (!probes.some((found) => !found.answered())) return NOTHING_STOPPED;
    // The current tab, asked as a reference once the others fell silent: silent ones may share its
    // renderer (popups of its own site do), and a stop sent to them would end its script. Asked
    // after them, it answers only once that renderer has answered their earlier questions; asked
    // alongside, it could answer just before its own script started, and that script be stopped.
    // A current tab that does not answer is the hang check's; nothing is stopped this round.
    // A current tab in another context shares no renderer with these, but falls silent as they do on a machine too busy to answer.
    const current = left ? undefined : (pages.find((page) => isCurrentTab(page)) ?? elsewhere);
    if (current && !navigationWaitingFor(current)) {
      const reference = await probe(current.context(), current);
      const answered = reference?.answered() === true;
      void reference?.session.detach().catch(() => {});
      if (!answered) return NOTHING_STOPPED;
    }
    const [stuckFrames, stuckTabs] = await Promise.all([stillSilent(frameProbes), stillSilent(tabProbes)]);
    const stuck = [...stuckFrames, ...stuckTabs];
    if (stuck.length) stops.stop(new Set(stuck.map(({ targetId }) => targetId)));
    const urls = (found: typeof stuck) => found.map(({ url }) => url);
    return { frames: urls(stuckFrames), tabs: urls(stuckTabs.filter(({ target }) => target !== left)), left: urls(stuckTabs.filter(({ target }) => target === left)) };
  } finally {
    for (const found of probes) void found.session.detach().catch(() => {});
  }
}

// Once a navigation starts, the browser holds every DevTools command for the
// page until the new document commits, which a script that never yields in
// the old one prevents: a stop sent then would wait with them, and only the
// hang check's close would end the call. So the tab is probed before the
// navigation is sent (a script the leaving itself starts, an endless unload
// handler, runs during the commit, when commands flow again: the checks
// during the call stop that one). A renderer busy this long without a break
// is taken as stuck: the page is being left anyway.
const BEFORE_LEAVING_MS = 2000;

/** Before a navigation leaves the current tab `page`: stops its script if its renderer does not answer. The page's URL when it did. */
export async function stopScriptBeforeLeaving(context: BrowserContext, page: Page, stops: ScriptStops): Promise<string | undefined> {
  // A blank tab runs no script of a page's; a dialog holds its renderer (and those it shares) without being stuck.
  if (page.url() === 'about:blank' || hasCrashed(page) || context.pages().some((candidate) => !candidate.isClosed() && openDialogOf(candidate)) || navigationWaitingFor(page)) return undefined;
  const targetId = await targetIdOf(context, page, BEFORE_LEAVING_MS);
  if (!targetId || (await stops.answers(targetId, BEFORE_LEAVING_MS)) !== false) return undefined;
  stops.stop(new Set([targetId]));
  return page.url();
}
