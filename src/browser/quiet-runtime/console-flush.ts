import type { BrowserContext, Page } from 'playwright-core';
import { loadedCoreBundle } from '../../playwright-bundles.ts';
import { withDeadline } from '../deadline.ts';

// With the Runtime domain off (runtime-shim.ts), a page's console messages
// reach Playwright when it next runs script in that page. Snapshots do, so a
// tool's result lists what the page logged during the call; reading the
// console alone (browser_console_messages, the per-call counts) runs none.
// Before those reads, one read of document.title in Playwright's utility
// world (invisible to the page) lets the stored messages through.

const FLUSH_DEADLINE_MS = 500;
const quietContexts = new WeakSet<BrowserContext>();
let patched = false;

interface TabLike {
  page: Page;
  modalStates(): unknown[];
  consoleMessages(level?: string, all?: boolean): Promise<unknown[]>;
  consoleMessageCount(): Promise<unknown>;
}

async function flush(tab: TabLike): Promise<void> {
  const page = tab.page;
  // Script waits behind an open alert/confirm/prompt: then the messages wait too.
  if (!quietContexts.has(page.context()) || page.isClosed() || tab.modalStates().length) return;
  await withDeadline(page.title().catch(() => undefined), FLUSH_DEADLINE_MS);
}

/** The upstream's console reads in this context see what its pages logged up to now. */
export function flushConsoleBeforeReads(context: BrowserContext): void {
  quietContexts.add(context);
  if (patched) return;
  patched = true;
  const { tools } = loadedCoreBundle() as { tools: { Tab: { prototype: TabLike } } };
  const proto = tools.Tab.prototype;
  const messages = proto.consoleMessages;
  const count = proto.consoleMessageCount;
  proto.consoleMessages = async function (this: TabLike, level?: string, all?: boolean) {
    await flush(this);
    return messages.call(this, level, all);
  };
  proto.consoleMessageCount = async function (this: TabLike) {
    await flush(this);
    return count.call(this);
  };
}
