import type { ChildProcess } from 'node:child_process';
import { Frames, NUL_BYTE } from '../devtools-frames.ts';
import { interposePipe, type PipeEnds } from '../pipe-interpose.ts';

// A browser started ahead (spawn-ahead.ts) waits ~0.5 s on Node for
// playwright-core to load, on a core the load does not use. The first page's
// target costs ~150 ms of that wait once Playwright asks for it (a renderer
// process and its setup), so the browser opens it ahead: the same commands
// Playwright's launch sends for a fresh context's first page (crBrowser.ts:
// auto-attach paused at start, a context disposed on detach, an about:blank
// target in it), from our own pipe end. When Playwright then sends the same
// commands, it gets the answers of ours, and the target's attach event, held
// back until its createTarget. From Playwright's side nothing differs from a
// launch without this: the target is paused until its own setup runs. A
// command that differs (other context options, a persistent launch) is
// Playwright's own from there: it goes to Chromium, and what we opened is
// disposed unseen.

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };
const CONTEXT = { disposeOnDetach: true };
// Below the quiet runtime's own ids (down from -1e6) and Playwright's (positive, -9999 for close).
const OWN_IDS = { attach: -900_001, context: -900_002, target: -900_003, dispose: -900_004 } as const;
/** Unclaimed this long after Playwright took the process, the target is disposed (a launch that never asks for a page). */
const CLAIM_MS = 30_000;
/** Messages larger than this are never ours: passed on without being decoded. */
const DECODE_LIMIT = 64 * 1024;

export type TargetAheadReport = { state: 'opening' | 'handed over' | 'not used'; why?: string };

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
  sessionId?: string;
}

const sameParams = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function decode(bytes: Buffer): Message | undefined {
  if (bytes.length > DECODE_LIMIT) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as Message;
  } catch {
    return undefined;
  }
}

/**
 * Opens the first page's target on a browser started ahead with `--no-startup-window`;
 * call right after the spawn, before anything reads child.stdio[3] and [4].
 */
export function openTargetAhead(child: ChildProcess): { report(): TargetAheadReport; adopted(): void } | undefined {
  let report: TargetAheadReport = { state: 'opening' };
  let ends: PipeEnds | undefined;
  let contextId: string | undefined;
  let targetId: string | undefined;
  let attachEvent: Buffer | undefined;
  let ourSession: string | undefined;
  let contextClaimed = false;
  /** Playwright's createTarget for our target, waiting for it to be attached. */
  let claim: number | undefined;
  /** Playwright's createBrowserContext, sent before ours was answered. */
  let contextWaiter: number | undefined;
  let through = false;
  const fromDriver = new Frames();
  const fromBrowser = new Frames();
  const ownOpen = new Set<number>([OWN_IDS.attach, OWN_IDS.context, OWN_IDS.target]);

  const send = (id: number, method: string, params: object) => ends?.toBrowser(Buffer.concat([Buffer.from(JSON.stringify({ id, method, params })), NUL_BYTE]));
  const answer = (id: number, result: object) => ends?.toDriver(Buffer.concat([Buffer.from(JSON.stringify({ id, result })), NUL_BYTE]));
  const settled = () => report.state !== 'opening';

  // Done with the pipe once nothing of ours is on it: from here on both sides pass as raw bytes, not decoded.
  const goThrough = () => {
    if (through || !settled() || ownOpen.size > 0 || contextWaiter !== undefined) return;
    through = true;
    const toBrowser = fromDriver.drain();
    if (toBrowser) ends?.toBrowser(toBrowser);
    const toDriver = fromBrowser.drain();
    if (toDriver) ends?.toDriver(toDriver);
  };
  const giveUp = (why: string) => {
    if (settled()) return;
    report = { state: 'not used', why };
    if (claim !== undefined) {
      // Playwright's createTarget waited on ours: it goes to Chromium after all.
      send(claim, 'Target.createTarget', { url: 'about:blank', browserContextId: contextId });
      claim = undefined;
    }
    // A context Playwright took is its own; only a target it never saw is closed.
    if (contextId !== undefined && !contextClaimed) {
      ownOpen.add(OWN_IDS.dispose);
      send(OWN_IDS.dispose, 'Target.disposeBrowserContext', { browserContextId: contextId });
    } else if (targetId !== undefined) {
      ownOpen.add(OWN_IDS.dispose);
      send(OWN_IDS.dispose, 'Target.closeTarget', { targetId });
    }
  };
  const handOver = () => {
    if (claim === undefined || !attachEvent || !targetId) return;
    ends?.toDriver(Buffer.concat([attachEvent, NUL_BYTE]));
    answer(claim, { targetId });
    claim = undefined;
    attachEvent = undefined;
    report = { state: 'handed over' };
  };

  const claimContext = (id: number) => {
    contextClaimed = true;
    answer(id, { browserContextId: contextId });
  };

  // Answers from Chromium to our own commands, and what it says of our target before it is handed over.
  const fromChromium = (message: Message, bytes: Buffer): boolean => {
    if (message.id !== undefined && ownOpen.has(message.id)) {
      ownOpen.delete(message.id);
      if (message.id === OWN_IDS.context && !message.error) {
        contextId = String(message.result?.browserContextId);
        send(OWN_IDS.target, 'Target.createTarget', { url: 'about:blank', browserContextId: contextId });
        if (contextWaiter !== undefined) claimContext(contextWaiter);
      } else if (message.id === OWN_IDS.context) {
        ownOpen.delete(OWN_IDS.target);
        // Playwright's own createBrowserContext waited on ours, which failed: it goes to Chromium after all.
        if (contextWaiter !== undefined) send(contextWaiter, 'Target.createBrowserContext', CONTEXT);
      }
      if (message.id === OWN_IDS.context) contextWaiter = undefined;
      if (message.id === OWN_IDS.target && !message.error) targetId = String(message.result?.targetId);
      if (message.error && message.id !== OWN_IDS.dispose) giveUp('Chromium could not open it');
      handOver();
      return true;
    }
    const params = message.params as { sessionId?: string; targetInfo?: { browserContextId?: string } } | undefined;
    if (message.method === 'Target.attachedToTarget' && !message.sessionId && !settled() && !attachEvent && contextId !== undefined && params?.targetInfo?.browserContextId === contextId) {
      ourSession = params.sessionId;
      attachEvent = bytes;
      handOver();
      return true;
    }
    // Our target's session, until it is handed over, is ours alone.
    if (ourSession !== undefined && report.state !== 'handed over' && (message.sessionId === ourSession || params?.sessionId === ourSession)) {
      if (message.method === 'Target.detachedFromTarget') giveUp('its target went away');
      return true;
    }
    return false;
  };

  // Playwright's commands: the ones ours already sent are answered with our answers.
  const fromPlaywright = (message: Message): boolean => {
    if (message.id === undefined || message.sessionId || settled() || claim !== undefined || contextWaiter !== undefined) return false;
    if (message.method === 'Target.setAutoAttach' && sameParams(message.params, AUTO_ATTACH)) {
      answer(message.id, {});
      return true;
    }
    if (message.method === 'Target.createBrowserContext' && !contextClaimed && sameParams(message.params, CONTEXT)) {
      if (contextId === undefined) contextWaiter = message.id;
      else claimContext(message.id);
      return true;
    }
    if (message.method === 'Target.createTarget' && contextClaimed && sameParams(message.params, { url: 'about:blank', browserContextId: contextId })) {
      claim = message.id;
      handOver();
      return true;
    }
    // Other contexts (other options, a throwaway probe's) pass; a page elsewhere before ours is
    // claimed means the session's context is not ours, and a different auto-attach, another launch.
    const elsewhere = message.method === 'Target.createTarget' && !contextClaimed;
    if (elsewhere || message.method === 'Target.setAutoAttach') giveUp(`Playwright asked for something else (${message.method})`);
    return false;
  };

  ends = interposePipe(child, (pipe) => ({
    fromDriver(chunk, done) {
      if (through) return pipe.toBrowser(chunk, done);
      const passed: Buffer[] = [];
      for (const bytes of fromDriver.push(chunk)) {
        const message = decode(bytes);
        if (!message || !fromPlaywright(message)) passed.push(bytes, NUL_BYTE);
      }
      if (passed.length) pipe.toBrowser(Buffer.concat(passed), done);
      else done();
      goThrough();
    },
    fromBrowser(chunk) {
      if (through) return pipe.toDriver(chunk);
      const passed: Buffer[] = [];
      for (const bytes of fromBrowser.push(chunk)) {
        const message = decode(bytes);
        if (!message || !fromChromium(message, bytes)) passed.push(bytes, NUL_BYTE);
      }
      if (passed.length) pipe.toDriver(Buffer.concat(passed));
      goThrough();
    },
  }));
  if (!ends) return undefined;
  send(OWN_IDS.attach, 'Target.setAutoAttach', AUTO_ATTACH);
  send(OWN_IDS.context, 'Target.createBrowserContext', CONTEXT);
  return {
    report: () => report,
    adopted() {
      const timer = setTimeout(() => giveUp(`Playwright did not ask for a page within ${CLAIM_MS / 1000} s`), CLAIM_MS);
      timer.unref();
    },
  };
}
