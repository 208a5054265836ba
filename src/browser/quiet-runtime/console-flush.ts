import type { BrowserContext, Page } from 'playwright-core';
import { consoleFallbackOn } from '../console-fallback.ts';
import { withDeadline } from '../deadline.ts';
import { callAsUpstream } from '../upstream-call.ts';
import { upstreamTabPrototype } from '../upstream-tabs.ts';
import { navigationWaits } from '../waiting-navigations.ts';
import type { QuietRuntime } from './runtime-shim.ts';

// With the Runtime domain off (runtime-shim.ts), a page's console messages
// reach Playwright at the shim's syncs. The upstream reads them in three
// places: a tool result's snapshot section ("New console entries"), the
// per-call counts and browser_console_messages. Each first has the shim let
// the stored messages of that browser's pages through, as the domain left on
// would have delivered them already.

const FLUSH_DEADLINE_MS = 500;
/** Tasks between a message leaving the shim and the upstream's console handler (two), and one to spare. */
const PLAYWRIGHT_DELIVERY_HOPS = 3;
// One tool result reads twice (snapshot section, then the counts): one flush
// serves both. Results given back to back (no settle wait between, as actions
// have) share one a little longer: a flush costs the browser ~1 ms of CPU,
// and a page's own timers are all that can log between them. Counts read
// without a snapshot before them get a flush of their own. The list is read
// only by browser_console_messages, right after its counts: it always shares
// their flush, so both agree however long a loaded machine takes between them
// (a 50 ms window once let a tick in: 48 counted, 49 listed).
// A tool that acts (evaluate, click, type, navigate...) can make the page log
// by itself; its result must list that, as the upstream's does: its first
// read always flushes (consoleMayHaveChanged). browser_snapshot only reads, and
// shares the last result's flush within the window.
const FRESH_FOR_MS = 50;
const SNAPSHOT_FRESH_FOR_MS = 300;
const shims = new WeakMap<BrowserContext, QuietRuntime>();
const flushedAt = new WeakMap<QuietRuntime, number>();
/** Tabs whose snapshot was just taken: the counts that follow in the same result share its flush. */
const snapshotTaken = new WeakSet<TabLike>();
// browser_console_messages reads the counts, then the list: two reads of a
// live log. The flush before them makes the counts current, but a sync no
// read waits for (one that script run by Playwright after a quiet second
// starts, or a flush past its deadline) can land a message between the two:
// once, 117 counted and 118 listed. Between them the browser's deliveries are
// held (both reads are Playwright's own bookkeeping, no answer from the
// browser needed); the held messages follow the list at once. The counts a
// result's header reads (headerSnapshot, after the list) hold nothing.
const LIST_HOLD_MS = 1000;
/** Per upstream Context (a tab's .context): opens what the count read held. */
const heldFor = new WeakMap<object, () => void>();
/** Tabs whose result header is being read. */
const inHeader = new WeakSet<TabLike>();
let patched = false;

interface TabLike {
  context: object;
  page: Page;
  modalStates(): unknown[];
  captureSnapshot(...args: unknown[]): Promise<unknown>;
  consoleMessages(level?: string, all?: boolean): Promise<unknown[]>;
  consoleMessageCount(): Promise<unknown>;
  headerSnapshot(...args: unknown[]): Promise<unknown>;
}

async function settle(): Promise<void> {
  for (let hop = 0; hop < PLAYWRIGHT_DELIVERY_HOPS; hop++) await new Promise((resolve) => setImmediate(resolve));
}

/** Before the counts browser_console_messages reads ahead of its list. */
async function holdUntilListed(tab: TabLike): Promise<void> {
  // The counts are read by a result's header (marked) and by browser_console_messages alone.
  if (inHeader.has(tab)) return;
  const shim = shims.get(tab.page.context());
  if (!shim || heldFor.has(tab.context) || consoleFallbackOn(tab.page.context())) return;
  const open = shim.holdDeliveries();
  const timer = setTimeout(() => release(tab.context), LIST_HOLD_MS);
  heldFor.set(tab.context, () => (clearTimeout(timer), open()));
  // What passed before the hold still lands first.
  await settle();
}

function release(context: object): void {
  heldFor.get(context)?.();
  heldFor.delete(context);
}

async function flush(tab: TabLike, freshForMs: number): Promise<void> {
  const shim = shims.get(tab.page.context());
  // A page behind an open alert/confirm/prompt answers nothing until it closes: its messages wait.
  if (!shim || tab.page.isClosed() || tab.modalStates().length) return;
  if (performance.now() - (flushedAt.get(shim) ?? -Infinity) < freshForMs) return;
  // While the tab's navigation waits for its server, Chromium holds the sync until the new document
  // commits: the flush is asked for (the other pages answer), not waited for. What the old document
  // logged before it navigated went with the sync that followed the call (runtime-shim.ts).
  const navigating = navigationWaits(tab.page);
  try {
    await withDeadline(Promise.race([shim.flush(), navigating.waits]), FLUSH_DEADLINE_MS);
  } finally {
    navigating.stop();
  }
  flushedAt.set(shim, performance.now());
  // The flush ends when the shim sees Chromium's answer; the messages before
  // it still reach the upstream's log a task at a time (Playwright's pipe
  // transport, then its in-process client connection: one setImmediate each).
  // Reading the log before they land would leave this call's own messages to
  // the next result.
  await settle();
}

/** A tool call that may make pages log starts: its result's first console read flushes. */
export function consoleMayHaveChanged(shim: QuietRuntime): void {
  flushedAt.delete(shim);
}

/** The upstream's console reads in this context see what its pages logged up to now. */
export function flushConsoleBeforeReads(context: BrowserContext, shim: QuietRuntime): void {
  shims.set(context, shim);
  if (patched) return;
  patched = true;
  const proto = upstreamTabPrototype<TabLike>();
  // How fresh a flush each read accepts (read before the flush: it may consume the snapshot's mark).
  const freshFor: Record<'captureSnapshot' | 'consoleMessages' | 'consoleMessageCount', (tab: TabLike) => number> = {
    captureSnapshot: () => SNAPSHOT_FRESH_FOR_MS,
    consoleMessageCount: (tab) => (snapshotTaken.delete(tab) ? SNAPSHOT_FRESH_FOR_MS : FRESH_FOR_MS),
    consoleMessages: () => Infinity,
  };
  for (const name of Object.keys(freshFor) as (keyof typeof freshFor)[]) {
    const native = proto[name] as (this: TabLike, ...args: unknown[]) => Promise<unknown>;
    // Run as the upstream's own call (upstream-call.ts): a page call that fails in the read (a
    // crashed tab's snapshot) reads "browserBackend.callTool: Target crashed" as there, not a bare "Target crashed".
    (proto as unknown as Record<string, unknown>)[name] = function (this: TabLike, ...args: unknown[]) {
      const read = callAsUpstream()(
        async () => {
          await flush(this, freshFor[name](this));
          if (name === 'captureSnapshot') snapshotTaken.add(this);
          if (name === 'consoleMessageCount') await holdUntilListed(this);
        },
        native,
        this,
        args,
      );
      // The list read opens the hold when it ends; the counts read only when it fails (no list follows).
      if (name === 'captureSnapshot') return read;
      return read.then(
        (result) => (name === 'consoleMessages' && release(this.context), result),
        (error: unknown) => {
          release(this.context);
          throw error;
        },
      );
    };
  }
  const header = proto.headerSnapshot;
  proto.headerSnapshot = function (this: TabLike, ...args: unknown[]) {
    return callAsUpstream()(async () => void inHeader.add(this), header, this, args).finally(() => inHeader.delete(this));
  };
}
