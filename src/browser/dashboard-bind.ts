import type { Browser } from 'playwright-core';

// browser_annotate opens the Playwright Dashboard (a separate process) on the
// session's page, which it finds in Playwright's browser registry. The
// upstream CLI publishes every browser it launches there (browser.bind: a
// pipe server on a unix socket and a descriptor file); in the context-getter
// mode it runs in here nothing is published, and the dashboard opened with no
// page to annotate. A session's browser is published when that tool first
// needs it, not at launch: until then no other local process can drive it.

const published = new WeakSet<Browser>();

/** Publishes the browser in Playwright's registry under `title`, once; a failure is the tool's to report. */
export async function publishForDashboard(browser: Browser, title: string): Promise<void> {
  if (published.has(browser)) return;
  await browser.bind(title, { workspaceDir: process.cwd() });
  published.add(browser);
}
