import { spawn } from 'node:child_process';
import type http from 'node:http';
import { CHROMIUM } from './upstream-cli.ts';

// The yardstick of the stealth tests: the same Chromium started by hand, no
// driver attached, on a page that posts what it reads back to the test's server.

/** What pages post back, in the order they arrive. */
export class Reports {
  #waiters: ((body: string) => void)[] = [];

  /** Takes a POST (a page's report) and answers it; false for any other request. */
  take(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    if (req.method !== 'POST') return false;
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => (this.#waiters.shift()?.(body), res.end()));
    return true;
  }

  /** The next report (call before the page can send it). */
  next(timeoutMs = 30_000): Promise<string> {
    return Promise.race([
      new Promise<string>((resolve) => this.#waiters.push(resolve)),
      new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`no report within ${timeoutMs / 1000} s`)), timeoutMs)),
    ]);
  }
}

/** A headless Chromium started by hand with its own defaults (and `args`); kill() ends it and its children. */
export function startedByHand(args: string[], profileDir: string): { kill(): void } {
  const child = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--no-first-run', `--user-data-dir=${profileDir}`, ...args], { stdio: 'ignore', detached: true, env: { ...process.env, TMPDIR: profileDir } });
  return {
    kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/** Opens the URL in a headless Chromium nobody drives and returns what its page reported; the browser is killed then. */
export async function unautomated(url: string, profileDir: string, reports: Reports): Promise<string> {
  const seen = reports.next();
  const browser = startedByHand(['--disable-background-networking', url], profileDir);
  try {
    return await seen;
  } finally {
    browser.kill();
  }
}
