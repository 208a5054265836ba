import type { BrowserContext, Page } from 'playwright-core';

// The contexts whose input is humanised (--humanize); the patched Playwright
// methods are shared by every context of the process.

const contexts = new WeakSet<BrowserContext>();

export const humanizeContext = (context: BrowserContext): void => void contexts.add(context);
export const isHumanized = (page: Page): boolean => contexts.has(page.context());
