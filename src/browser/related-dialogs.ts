import type { Dialog, Page } from 'playwright-core';
import { makeCurrentTab, openDialogOf } from './open-dialogs.ts';
import { callAsUpstream } from './upstream-call.ts';
import { upstreamTabOf, upstreamTabPrototype } from './upstream-tabs.ts';

// A popup that opens an alert as it loads holds the tab that opened it (they
// share a renderer, open-dialogs.ts), but the upstream races each call on a
// tab against that tab's own dialogs only: the click that opened the popup
// waited out its 5 s, and every later call on the opener (a snapshot, the tab
// list's titles, a navigate) waited out its own deadline, the upstream's
// session held until the dialog was found and answered. A call on a tab now
// also ends when a page of its site that it opened, or that opened it, shows
// a dialog: that page becomes the current tab, and the result names its
// dialog as the upstream names a dialog of the tab itself, so the next
// browser_handle_dialog answers it. Pages of other sites run in renderers of
// their own (site isolation) and are not held: their dialogs end nothing.

interface ModalState {
  type: string;
  dialog?: Dialog;
}

interface TabLike {
  page: Page;
  modalStates(): ModalState[];
  _raceAgainstModalStates(action: () => Promise<unknown>): Promise<ModalState[]>;
}

/** The part of a URL that decides its renderer: scheme and registrable host (roughly: the last two labels, or the address). */
function siteOf(url: string): string | undefined {
  try {
    const { protocol, hostname } = new URL(url);
    // A blank or srcdoc document runs where the page that made it does.
    if (protocol === 'about:') return undefined;
    const site = /^[\d.]+$|:/.test(hostname) ? hostname : hostname.split('.').slice(-2).join('.');
    return `${protocol}//${site}`;
  } catch {
    return url;
  }
}

async function openersOf(page: Page): Promise<Page[]> {
  const chain: Page[] = [];
  for (let at: Page | null = page; at && !chain.includes(at) && chain.length < 20; at = await at.opener()) chain.push(at);
  return chain;
}

/** Whether a dialog of `other` (a page of the same context) holds `page`: one opened the other (through any popups between) and both are of one site. */
async function sharesRenderer(page: Page, other: Page): Promise<boolean> {
  if (page === other) return false;
  const [site, otherSite] = [siteOf(page.url()), siteOf(other.url())];
  if (site && otherSite && site !== otherSite) return false;
  const [mine, theirs] = await Promise.all([openersOf(page), openersOf(other)]);
  return mine.some((p) => theirs.includes(p));
}

/** Resolves with a page that shows a dialog holding `page` (one open now, or the first to open); `dispose` stops watching. */
function heldBy(page: Page): { found: Promise<Page>; dispose(): void } {
  const context = page.context();
  let found!: (holder: Page) => void;
  const promise = new Promise<Page>((resolve) => (found = resolve));
  const check = (other: Page) =>
    void sharesRenderer(page, other).then(
      (held) => held && openDialogOf(other) && found(other),
      () => {},
    );
  const onDialog = (dialog: Dialog) => {
    const other = dialog.page();
    if (other) check(other);
  };
  context.on('dialog', onDialog);
  for (const other of context.pages()) if (openDialogOf(other)) check(other);
  return { found: promise, dispose: () => void context.off('dialog', onDialog) };
}

/** The modal states the held call answers with: the holder's own, once its tab has taken the dialog. */
async function statesOf(holder: Page): Promise<ModalState[]> {
  await makeCurrentTab(holder);
  const tab = upstreamTabOf(holder) as unknown as TabLike | undefined;
  return tab?.modalStates() ?? [];
}

let patched = false;

/** The upstream's calls on a tab end when a page sharing its renderer shows a dialog (one patch per process). */
export function endCallsAtRelatedDialogs(): void {
  if (patched) return;
  patched = true;
  const proto = upstreamTabPrototype<TabLike>();
  const native = proto._raceAgainstModalStates;
  proto._raceAgainstModalStates = function (this: TabLike, action) {
    // Run as the upstream's own call (upstream-call.ts): an action that fails in it (a click that
    // times out) reads "browserBackend.callTool: Timeout …" as there, not "tab._raceAgainstModalStates: …".
    const own = callAsUpstream()(async () => {}, native, this, [action]) as Promise<ModalState[]>;
    if (this.modalStates().length || this.page.isClosed()) return own;
    return raceWithHolder(this.page, own);
  };
}

async function raceWithHolder(page: Page, own: Promise<ModalState[]>): Promise<ModalState[]> {
  const held = heldBy(page);
  try {
    const first = await Promise.race([own.then((states) => ({ states })), held.found.then((holder) => ({ holder }))]);
    if ('states' in first) return first.states;
    // The call goes on in the background, as the upstream's does past its own tab's dialog.
    own.catch(() => {});
    return await statesOf(first.holder);
  } finally {
    held.dispose();
  }
}
