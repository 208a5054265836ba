import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../log.ts';

/** Grace after SIGTERM before SIGKILL, and the wait after SIGKILL (issue 7; the stop timeout documented in docs/container.md covers 2 × (8 + 2) s). */
export const TERM_GRACE_MS = 8_000;
export const KILL_GRACE_MS = 2_000;

/** Resolves when the child has exited (at once if it already has), or after `ms`; true if it exited. */
export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** SIGTERM, up to 8 s, then SIGKILL and up to 2 s. Resolves true if the child is gone. */
export async function stopChild(child: ChildProcess | undefined, name: string, log: Logger): Promise<boolean> {
  if (!child || child.pid === undefined) return true;
  if (await waitForExit(child, 0)) return true;
  log.debug(`launcher: SIGTERM to ${name} (pid ${child.pid})`);
  child.kill('SIGTERM');
  if (await waitForExit(child, TERM_GRACE_MS)) return true;
  log.warn(`launcher: ${name} (pid ${child.pid}) ignored SIGTERM for ${TERM_GRACE_MS / 1000} s; sending SIGKILL`);
  child.kill('SIGKILL');
  if (await waitForExit(child, KILL_GRACE_MS)) return true;
  log.error(`launcher: ${name} (pid ${child.pid}) is still there ${KILL_GRACE_MS / 1000} s after SIGKILL`);
  return false;
}
