import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { chromium } from '../playwright-bundles.ts';
import type { UpstreamConfig } from '../config/upstream.ts';

// Attach mode: a browser the user runs (--cdp-endpoint, or --endpoint for a
// Playwright server). It is not ours: the bridge never closes it, only what it
// created (its own context, or the pages it opened in the browser's context),
// and it gives no fingerprint guarantee.

export interface AttachTarget {
  kind: 'cdp' | 'playwright';
  endpoint: string;
  headers: Record<string, string>;
  timeoutMs: number | undefined;
  /** A context of the session's own (HTTP always; stdio with --isolated), else the browser's default one. */
  ownContext: boolean;
}

export function attachTarget(upstream: UpstreamConfig, transport: 'stdio' | 'streamable-http'): AttachTarget | undefined {
  const b = upstream.browser as (UpstreamConfig['browser'] & { cdpHeaders?: Record<string, string>; remoteHeaders?: Record<string, string> }) | undefined;
  const ownContext = transport !== 'stdio' || b?.isolated === true;
  if (b?.cdpEndpoint) return { kind: 'cdp', endpoint: b.cdpEndpoint, headers: b.cdpHeaders ?? {}, timeoutMs: b.cdpTimeout, ownContext };
  const remote = b?.remoteEndpoint as string | { endpoint: string; headers?: Record<string, string> } | undefined;
  if (!remote) return undefined;
  const endpoint = typeof remote === 'string' ? remote : remote.endpoint;
  return { kind: 'playwright', endpoint, headers: { ...b?.remoteHeaders, ...(typeof remote === 'string' ? {} : remote.headers) }, timeoutMs: undefined, ownContext };
}

/** The endpoint without credentials or query (tokens often travel there). */
export function displayEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(unparsable endpoint)';
  }
}

export interface Attached {
  browser: Browser;
  context: BrowserContext;
  /** Closes what the session created and disconnects; the browser stays up. */
  release(): Promise<void>;
}

export async function attach(target: AttachTarget, contextOptions: BrowserContextOptions): Promise<Attached> {
  const browserType = await chromium();
  const options = { headers: target.headers, ...(target.timeoutMs ? { timeout: target.timeoutMs } : {}) };
  const browser = target.kind === 'cdp' ? await browserType.connectOverCDP(target.endpoint, options) : await browserType.connect(target.endpoint, options);
  const existing = browser.contexts()[0];
  const context = target.ownContext || !existing ? await browser.newContext(contextOptions) : existing;
  const before = new Set(context.pages());
  return {
    browser,
    context,
    async release() {
      // In the browser's own context, only the pages this session opened go.
      if (context === existing) for (const page of context.pages()) if (!before.has(page)) await page.close().catch(() => {});
      // Disconnecting closes the contexts this connection created, never the browser.
      await browser.close().catch(() => {});
    },
  };
}
