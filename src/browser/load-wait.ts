import { upstreamTabPrototype } from './upstream-tabs.ts';

// The upstream's browser_navigate waits for the page's load event (up to 5 s)
// after the document is in. A page whose load handler opens an alert, or a
// frame that alerts as it loads, holds that event until the alert is
// answered, so the navigate waited out the 5 s and then answered with the
// dialog. It answers with the dialog as it opens.

/** The upstream Tab's event for a new modal state (its `TabEvents.modalState`): a dialog, a file chooser, a download prompt. */
const TAB_MODAL_STATE_EVENT = 'modalState';

type ModalStateListener = (state: { type: string }) => void;

interface TabLike {
  modalStates(): { type: string }[];
  on(event: string, listener: ModalStateListener): void;
  off(event: string, listener: ModalStateListener): void;
  waitForLoadState(state: string, options?: { timeout?: number }): Promise<void>;
}

/** Resolves when an alert, confirm, prompt or beforeunload dialog is open in the tab; `dispose` stops listening. */
function dialogOpen(tab: TabLike): { opened: Promise<void>; dispose(): void } {
  let listener: ModalStateListener = () => {};
  const opened = new Promise<void>((resolve) => {
    listener = (state) => state.type === 'dialog' && resolve();
    if (tab.modalStates().some((state) => state.type === 'dialog')) resolve();
  });
  tab.on(TAB_MODAL_STATE_EVENT, listener);
  return { opened, dispose: () => tab.off(TAB_MODAL_STATE_EVENT, listener) };
}

let patched = false;

/** The upstream's load waits end when a dialog opens (one patch per process). */
export function endLoadWaitsAtDialogs(): void {
  if (patched) return;
  patched = true;
  const proto = upstreamTabPrototype<TabLike>();
  const native = proto.waitForLoadState;
  proto.waitForLoadState = async function (this: TabLike, state, options) {
    const dialog = dialogOpen(this);
    try {
      await Promise.race([native.call(this, state, options), dialog.opened]);
    } finally {
      dialog.dispose();
    }
  };
}
