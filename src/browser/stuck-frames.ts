import type { BrowserContext, Frame } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import { openDialogOf } from './open-dialogs.ts';
import type { ScriptStops } from './script-stop.ts';

// A frame of another site runs in a renderer of its own (an out-of-process
// iframe). When its script never yields, the page itself still answers, so no
// call times out and the hang check never runs; but every snapshot waits for
// that frame until Playwright's own 30 s timeout gives it up (the upstream: a
// navigate, a snapshot, a wait of 1 s, each ~30 s, measured 2026-11-28). An
// unautomated browser shows the rest of the page meanwhile; here the frame's
// script is stopped, as a page found stuck is, and the call goes on.

/**
 * Each frame's renderer is given this long to evaluate `0`: a frame busy for
 * longer is taken as stuck. Long enough that a frame's heavy start on a busy
 * machine is not (Chromium itself calls a renderer hung after 15 s of no
 * answer to input), short against the 30 s the call would otherwise wait.
 */
const PROBE_MS = 4000;

type FrameState = { url: string; targetId: string | undefined } | undefined;

/** An out-of-process frame's state: undefined when it answers, or is not out of process (same renderer as its parent). */
async function probe(context: BrowserContext, frame: Frame): Promise<FrameState> {
  // Playwright refuses a session for a frame that shares its parent's renderer: nothing to probe there.
  const session = await withDeadline(context.newCDPSession(frame).catch(() => undefined), PROBE_MS);
  if (!session) return undefined;
  try {
    const answered = await withDeadline(session.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(() => true, () => true), PROBE_MS);
    if (answered) return undefined;
    // The browser answers this itself, stuck renderer or not.
    const info = await withDeadline(session.send('Target.getTargetInfo').catch(() => undefined), PROBE_MS);
    return { url: frame.url(), targetId: info?.targetInfo.targetId };
  } finally {
    void session.detach().catch(() => {});
  }
}

/**
 * Stops the script of every out-of-process frame whose renderer does not
 * answer (on Playwright's own DevTools session, which the renderer answers
 * between two statements), and returns their URLs. Bounded: all frames are
 * probed at once, 3 × PROBE_MS at most.
 */
export async function stopStuckFrames(context: BrowserContext, stops: ScriptStops): Promise<string[]> {
  // An alert in a frame (or in a page sharing its renderer) holds that renderer until answered: not stuck.
  // Which renderers a dialog holds is not known here, so while one is open no frame is stopped, as no page is closed.
  if (context.pages().some((page) => openDialogOf(page))) return [];
  const frames = context.pages().flatMap((page) => (page.isClosed() ? [] : page.frames().filter((frame) => frame.parentFrame() && !frame.isDetached())));
  const stuck = (await Promise.all(frames.map((frame) => probe(context, frame)))).filter((state) => state?.targetId !== undefined);
  if (stuck.length) stops.stop(new Set(stuck.map((state) => state!.targetId!)));
  return stuck.map((state) => state!.url);
}
