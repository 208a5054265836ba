import type { Dialog, Page } from 'playwright-core';
import { withDeadline } from '../deadline.ts';
import { openDialogOf } from '../open-dialogs.ts';
import { toolNameOf } from './cancelled-calls.ts';

// A page may answer input with alert(): a keydown or focus handler, a wheel
// or mouseover handler on the pointer's way. The renderer then holds every
// later event until someone answers, and humanised input going on would wait
// for that answer, where the upstream's actions (a fill without keys, a
// scroll by script, one move to the target) meet no such handler or time out
// in 5 s. Humanised input stops at the dialog, so the tool answers with the
// modal state at once; a click or drag then waits for the answer
// (afterDialogOnTheWay, below). The page is remembered until it leaves that address:
// its next actions run as the upstream runs them, or each answer would only
// let the next event raise the dialog again.

const inputRaisesDialogs = new WeakMap<Page, string>();

export interface DialogWatch {
  /** Resolves when the page shows a JavaScript dialog (at once if one is open). */
  readonly opened: Promise<'dialog'>;
  readonly open: boolean;
  dispose(): void;
}

export function watchForDialog(page: Page): DialogWatch {
  let open = !!openDialogOf(page);
  let resolve!: (value: 'dialog') => void;
  const opened = new Promise<'dialog'>((r) => (resolve = r));
  // On the context: a page listener would count as someone answering the page's dialogs (open-dialogs.ts).
  const onDialog = (dialog: Dialog) => {
    if (dialog.page() !== page) return;
    open = true;
    inputRaisesDialogs.set(page, page.url());
    resolve('dialog');
  };
  if (open) resolve('dialog');
  page.context().on('dialog', onDialog);
  return {
    opened,
    get open() {
      return open;
    },
    dispose: () => void page.context().off('dialog', onDialog),
  };
}

// An event the page has not taken by then (a handler that spins, a renderer
// held): humanised input stops, and the caller's plain action answers with its
// own timeout.
const STEP_MS = 3000;

/** Runs one input step unless a dialog is open: 'dialog' when one opens first, 'stalled' when the step takes past `withinMs` (it is left running). */
export async function inputStep(watch: DialogWatch, work: () => Promise<unknown>, withinMs = STEP_MS): Promise<'done' | 'dialog' | 'stalled'> {
  if (watch.open) return 'dialog';
  const step = work().then(() => 'done' as const);
  step.catch(() => {});
  return (await withDeadline(Promise.race([step, watch.opened]), withinMs)) ?? 'stalled';
}

/** Whether a dialog has stopped humanised input on this page (at its address) before. */
export const raisesDialogsOnInput = (page: Page): boolean => inputRaisesDialogs.get(page) === page.url();

/** A JavaScript dialog holds the page now: the tool answers with it (afterDialogOnTheWay says what becomes of the action). */
export const heldByDialog = (page: Page): boolean => !!openDialogOf(page);

// The upstream's click or drag that meets a dialog (its one move onto the
// element fires a mouseover handler's alert) is left waiting when the tool
// answers with the dialog (these tools race their action against the page's
// modal states), and goes on once the agent answers it, however long that
// takes: the click lands then. The pointer's way meets dialogs the upstream's
// single move does not (an element crossed on the way alerts on mouseover), and
// must not drop the click there. Other tools (a hover, a form's checkbox) wait
// for their action, not for a dialog: waiting for an answer there would hold
// the very call the agent needs back to give it. An agent that never answers
// leaves the action waiting this long.
const ANSWER_MS = 10 * 60_000;
const ANSWER_AWAITED_BY = new Set(['browser_click', 'browser_drag']);

/**
 * The pointer's way met a dialog: in a tool whose call has answered with it
 * (a click, a drag), undefined once the dialog is answered, and Playwright's
 * own action runs then; elsewhere the action is left out ({ result: undefined }).
 */
export async function afterDialogOnTheWay(page: Page): Promise<{ result: undefined } | undefined> {
  if (!ANSWER_AWAITED_BY.has(toolNameOf(page) ?? '')) return { result: undefined };
  await dialogAnswered(page);
  return undefined;
}

/** Whether the page's dialogs were answered (false: the page closed, or nobody answered in time). */
async function dialogAnswered(page: Page, withinMs = ANSWER_MS): Promise<boolean> {
  const context = page.context();
  let settle!: (answered: boolean) => void;
  const settled = new Promise<boolean>((resolve) => (settle = resolve));
  // After open-dialogs.ts has heard the close too; a page may open its next dialog at once.
  const check = () => setImmediate(() => (page.isClosed() ? settle(false) : !openDialogOf(page) && settle(true)));
  const onClose = () => settle(false);
  context.on('dialogclosed', check);
  page.once('close', onClose);
  check();
  try {
    return (await withDeadline(settled, withinMs)) ?? false;
  } finally {
    context.off('dialogclosed', check);
    page.off('close', onClose);
  }
}

/**
 * `work`, or undefined as soon as the page opens a dialog: Playwright's key
 * presses have no timeout, and a keydown handler's alert holds them until it
 * is answered (browser_press_key and browser_press_sequentially race no modal
 * state: on the upstream they wait for an answer only the agent can give).
 * The press goes on after the answer, as on the upstream.
 */
export async function untilDialog<T>(page: Page, work: Promise<T>): Promise<T | undefined> {
  const watch = watchForDialog(page);
  // Awaited by a function of ours, not only raced: Playwright names a failed
  // call after the async stack, which a race cuts ("Unknown key" would lose
  // the upstream's "browserBackend.callTool:" prefix).
  const awaited = (async () => await work)();
  awaited.catch(() => {});
  try {
    return await Promise.race([awaited, watch.opened.then(() => undefined)]);
  } finally {
    watch.dispose();
  }
}
