import type { BrowserContext, Page } from 'playwright-core';
import { loadedCoreBundle } from '../playwright-bundles.ts';

/** The upstream's tab of a page (its `Tab`), as far as this server reads it. */
export interface UpstreamTab {
  context: { tabs(): UpstreamTab[]; currentTab(): UpstreamTab | undefined; selectTab(index: number): Promise<unknown> };
}

/** The upstream's `Tab` class, from the loaded bundle: `T` is what the caller reads of its prototype. */
function upstreamTabClass<T>(): { forPage(page: Page): UpstreamTab | undefined; prototype: T } {
  return (loadedCoreBundle() as { tools: { Tab: { forPage(page: Page): UpstreamTab | undefined; prototype: T } } }).tools.Tab;
}

/** The prototype of the upstream's tabs, for the patches that change how every tab behaves; `T` is the part patched. */
export const upstreamTabPrototype = <T>(): T => upstreamTabClass<T>().prototype;

/** The upstream's tab for this page, if it has one. */
export function upstreamTabOf(page: Page): UpstreamTab | undefined {
  return upstreamTabClass().forPage(page);
}

/** The context's open page that is the upstream's current tab, if any. */
export function currentTabOf(context: BrowserContext): Page | undefined {
  return context.pages().find((page) => !page.isClosed() && isCurrentTab(page));
}

/** Whether this page is the upstream's current tab, the one its tools act on. */
export function isCurrentTab(page: Page): boolean {
  const tab = upstreamTabOf(page);
  return !!tab && tab.context.currentTab() === tab;
}
