import fs from 'node:fs/promises';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { onEveryTab } from './every-tab.ts';

const POLL_MS = 250;

export interface StoppedDownload {
  url: string;
  bytes: number;
}

/** Where Playwright writes a download while it runs (its artifact's path; not public API, so optional). */
function partialPath(download: Download): string | undefined {
  const path = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath;
  return typeof path === 'string' ? path : undefined;
}

/**
 * Cancels any download of the context that grows past `maxBytes` (a page may
 * serve a 2 GB file, or an endless stream). `onStopped` hears each one, so
 * the next tool result can say so.
 */
export function guardDownloads(context: BrowserContext, maxBytes: number, onStopped: (stopped: StoppedDownload) => void): void {
  const watch = (page: Page) =>
    page.on('download', (download) => {
      const file = partialPath(download);
      if (!file) return;
      let done = false;
      const timer = setInterval(async () => {
        // Chromium writes `<name>.crdownload` while it runs and renames it at the end.
        const sizes = await Promise.all([file, `${file}.crdownload`].map((f) => fs.stat(f).then((s) => s.size, () => 0)));
        const size = Math.max(...sizes);
        if (done || size <= maxBytes) return;
        done = true;
        clearInterval(timer);
        await download.cancel().catch(() => {});
        onStopped({ url: download.url(), bytes: size });
      }, POLL_MS);
      void download.path().catch(() => undefined).finally(() => {
        done = true;
        clearInterval(timer);
      });
    });
  onEveryTab(context, watch);
}
