import type { Dialog, Page } from 'playwright-core';
import { withDeadline } from '../deadline.ts';
import { openDialogOf } from '../open-dialogs.ts';

// A page may answer a key with alert() (a keydown handler, a focus handler):
// the renderer then holds every later key until someone answers, and typing
// on would wait for that answer. Humanised typing stops at the dialog, so the
// tool answers with the modal state at once (the upstream's fill, which sends
// no key, takes its 5 s timeout there when a focus handler alerts). The page
// is remembered until it leaves that address: the next text for it goes in as
// the upstream's fill puts it, without keys, or each answer would only let the
// next key raise the dialog again.

const keysRaiseDialogs = new WeakMap<Page, string>();

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
    keysRaiseDialogs.set(page, page.url());
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

// A key the page has not taken by then (a handler that spins, a renderer held):
// typing stops, and the caller's plain action answers with its own timeout.
const STEP_MS = 3000;

/** Runs one input step unless a dialog is open: 'dialog' when one opens first, 'stalled' when the step takes past STEP_MS (it is left running). */
export async function inputStep(watch: DialogWatch, work: () => Promise<unknown>): Promise<'done' | 'dialog' | 'stalled'> {
  if (watch.open) return 'dialog';
  const step = work().then(() => 'done' as const);
  step.catch(() => {});
  return (await withDeadline(Promise.race([step, watch.opened]), STEP_MS)) ?? 'stalled';
}

/** Whether a dialog has stopped humanised typing on this page before. */
export const raisesDialogsOnKeys = (page: Page): boolean => keysRaiseDialogs.get(page) === page.url();
