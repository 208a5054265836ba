import type { ChildProcess } from 'node:child_process';
import { Frames, NUL_BYTE } from '../devtools-frames.ts';

// The template's browser is driven over its DevTools pipe directly: no
// playwright-core client for a browser that only opens one page and closes.

/** Resolves true once the browser has opened a blank page in a fresh context, closed and exited; false at the deadline. */
export function driveToClose(child: ChildProcess, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const toBrowser = child.stdio[3] as NodeJS.WritableStream | null;
    const fromBrowser = child.stdio[4] as NodeJS.ReadableStream | null;
    const timer = setTimeout(() => resolve(false), deadlineMs);
    timer.unref();
    const send = (id: number, method: string, params: object = {}) => {
      try {
        toBrowser?.write(Buffer.concat([Buffer.from(JSON.stringify({ id, method, params })), NUL_BYTE]));
      } catch {
        // the exit resolves it
      }
    };
    const frames = new Frames();
    fromBrowser?.on('data', (chunk: Buffer) => {
      for (const bytes of frames.push(chunk)) {
        let message: { id?: number; result?: { browserContextId?: string } };
        try {
          message = JSON.parse(bytes.toString('utf8'));
        } catch {
          continue;
        }
        if (message.id === 1) {
          const browserContextId = message.result?.browserContextId;
          if (browserContextId) send(2, 'Target.createTarget', { url: 'about:blank', browserContextId });
          else send(3, 'Browser.close');
        } else if (message.id === 2) send(3, 'Browser.close');
      }
    });
    fromBrowser?.on('error', () => {});
    toBrowser?.on('error', () => {});
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    send(1, 'Target.createBrowserContext');
  });
}
