import { descendants, killAll, processInfo, stillRunning, type ProcInfo } from './proc.ts';

// Everything the bench starts (servers, their browsers, the page server, temp
// dirs) registers its undo here, so a failure, a signal or the global deadline
// still leaves nothing behind.

type Task = () => Promise<unknown> | unknown;

const tasks = new Map<number, { what: string; task: Task }>();
let nextId = 0;
let stopping = false;

/** Once the bench is stopping, never resolves: the guard's cleanup ends the process instead. */
export function haltIfStopping(): Promise<void> {
  return stopping ? new Promise(() => {}) : Promise.resolve();
}

/** Throws once the bench is stopping, so no new process starts while cleanup runs. */
export function assertRunning(): void {
  if (stopping) throw new Error('the bench is stopping');
}

/** Registers an undo step; call the returned function once it has been done normally. */
export function onCleanup(what: string, task: Task): () => void {
  const id = nextId++;
  tasks.set(id, { what, task });
  return () => void tasks.delete(id);
}

/** Runs every pending undo step, newest first; each gets a few seconds at most. */
export async function cleanupAll(): Promise<void> {
  const pending = [...tasks.entries()].reverse();
  tasks.clear();
  for (const [, { what, task }] of pending) {
    try {
      await withTimeout(Promise.resolve().then(task), 8_000, `cleanup: ${what}`);
    } catch (error) {
      process.stderr.write(`bench: ${(error as Error).message}\n`);
    }
  }
}

/**
 * Watches a process tree while it lives. Playwright starts Chromium in its own
 * process group, and a server that dies abruptly orphans it, so the tree is
 * sampled now and then and every process ever seen in it can be killed later.
 */
export class TreeWatch {
  readonly #root: ProcInfo | undefined;
  readonly #seen = new Map<string, ProcInfo>();
  readonly #timer: NodeJS.Timeout;

  constructor(rootPid: number) {
    this.#root = processInfo(rootPid);
    this.sample();
    this.#timer = setInterval(() => this.sample(), 250);
    this.#timer.unref();
  }

  sample(): void {
    if (!this.#root) return;
    for (const info of descendants(this.#root.pid)) this.#seen.set(`${info.pid}:${info.start}`, info);
  }

  /** SIGKILLs the root and every descendant ever seen that still runs; returns how many. */
  killEverything(): number {
    this.sample();
    clearInterval(this.#timer);
    return killAll([...(this.#root ? [this.#root] : []), ...this.#seen.values()]);
  }

  /** Waits up to `ms` for the whole tree to exit by itself (a browser takes a moment to go). */
  async settle(ms: number): Promise<void> {
    const all = () => [...(this.#root ? [this.#root] : []), ...this.#seen.values()];
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && all().some(stillRunning)) await new Promise((r) => setTimeout(r, 50));
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The bench stops by itself: after `deadlineMs`, or on a signal or a crash,
 * it cleans up and exits non-zero.
 */
export function installGuards(deadlineMs: number): () => void {
  const stop = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`bench: stopping (${why}); cleaning up\n`);
    void cleanupAll().finally(() => process.exit(code));
  };
  const deadline = setTimeout(() => stop(`the ${Math.round(deadlineMs / 1000)} s deadline passed`, 3), deadlineMs);
  const onSignal = (signal: NodeJS.Signals) => stop(signal, 130);
  const onCrash = (error: unknown) => stop(`unexpected error: ${(error as Error)?.stack ?? String(error)}`, 1);
  // The in-process upstream (measure 3) expects stray rejections from pages and
  // collects them itself; one is worth a line, not the whole run. The deadline
  // still bounds anything that hangs because of it.
  const onRejection = (error: unknown) => process.stderr.write(`bench: unhandled rejection: ${(error as Error)?.message ?? String(error)}\n`);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onRejection);
  return () => {
    clearTimeout(deadline);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onRejection);
  };
}
