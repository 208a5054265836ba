import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SessionBrowser } from '../browser/session-browser.ts';
import { isCompiledBinary } from '../runtime.ts';
import { errorResult } from './error-result.ts';

export const ANNOTATE_TOOL = 'browser_annotate';

/**
 * browser_annotate starts the Playwright Dashboard as `process.execPath
 * <playwright-core>/lib/entry/dashboardApp.js`: a web app of playwright-core's
 * files, which the standalone binary does not carry (it would start itself
 * with that path as an argument). On Node the session's browser is published
 * first, so the dashboard finds the page (browser/dashboard-bind.ts).
 * Returns the answer when the tool cannot run here, else undefined.
 */
export async function beforeAnnotate(browser: SessionBrowser, clientName: string | undefined): Promise<CallToolResult | undefined> {
  if (isCompiledBinary())
    return errorResult(
      `${ANNOTATE_TOOL} opens the Playwright Dashboard, a web app of the playwright-core package that the standalone binary does not include. Run the npm package for it (npx -y stealth-playwright-mcp, the same flags).`,
    );
  await browser.publishForDashboard(clientName ?? 'stealth-playwright-mcp');
  return undefined;
}
