import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { withDeadline } from './deadline.ts';
import { ownSession } from './unrecorded.ts';

/** What the quiet runtime's shim does to a page's renderer on Playwright's own DevTools sessions. */
export interface ScriptStops {
  /** Stops the script each target's renderer runs. */
  stop(targetIds: ReadonlySet<string>): void;
  /** Ends each target's renderer (it crashes, with every page it runs): for a script V8 does not stop. */
  crash(targetIds: ReadonlySet<string>): void;
  /** Whether the target's renderer runs a command within ms (undefined: not known). */
  answers(targetId: string, ms: number): Promise<boolean | undefined>;
  /** How long ago the target's renderer last ran something of Playwright's (ms; undefined: not known). */
  sinceAnswer(targetId: string): number | undefined;
}

const targetIds = new WeakMap<Page, Promise<string | undefined>>();

/**
 * The page's DevTools target id. The browser answers this itself, so a page
 * whose script never yields is no obstacle; undefined past ms or once closed.
 */
export function targetIdOf(context: BrowserContext, page: Page, ms: number): Promise<string | undefined> {
  let id = targetIds.get(page);
  if (!id) {
    id = lookUp(context, page, ms);
    targetIds.set(page, id);
    // A lookup that failed may be tried again.
    void id.then((found) => found ?? targetIds.delete(page));
  }
  return id;
}

/** The target id of the page that opened this one (window.open), even once that page is closed. */
export async function openerIdOf(context: BrowserContext, page: Page, ms: number): Promise<string | undefined> {
  return (await targetInfo(context, page, ms))?.openerId;
}

/** Learns the page's target id over a session already open on it (the hang probe's): no second attach. */
export async function learnTargetId(page: Page, session: CDPSession, ms: number): Promise<string | undefined> {
  const id = (await askTargetInfo(session, ms))?.targetId;
  if (id) targetIds.set(page, Promise.resolve(id));
  return id;
}

async function lookUp(context: BrowserContext, page: Page, ms: number): Promise<string | undefined> {
  return (await targetInfo(context, page, ms))?.targetId;
}

async function targetInfo(context: BrowserContext, page: Page, ms: number): Promise<TargetInfo | undefined> {
  const session = await withDeadline(ownSession(context, page).catch(() => undefined), ms);
  if (!session) return undefined;
  try {
    return await askTargetInfo(session, ms);
  } finally {
    void session.detach().catch(() => {});
  }
}

type TargetInfo = { targetId: string; openerId?: string };

/** The target's info, asked over a session already open on it; the browser answers this itself. */
export async function askTargetInfo(session: CDPSession, ms: number): Promise<TargetInfo | undefined> {
  return (await withDeadline(session.send('Target.getTargetInfo').catch(() => undefined), ms))?.targetInfo;
}

/**
 * Settles once the renderer behind the session has evaluated `0`. One whose
 * main thread never yields answers no command; an error is an answer too.
 */
export function rendererAnswer(session: CDPSession): Promise<true> {
  return session.send('Runtime.evaluate', { expression: '0', returnByValue: true }).then(() => true as const, () => true as const);
}

/** Whether the renderer behind the session evaluates `0` within ms (rendererAnswer). */
export async function rendererAnswers(session: CDPSession, ms: number): Promise<boolean> {
  return (await withDeadline(rendererAnswer(session), ms)) === true;
}
