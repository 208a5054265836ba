import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Logger } from '../log.ts';
import { displaySocket, probeX11 } from './x11-probe.ts';

export interface DisplayOptions {
  xvfbPath: string;
  /** WIDTHxHEIGHTxDEPTH of screen 0. */
  screen: string;
  log: Logger;
  /** Called once if Xvfb fails to start or exits while the launcher is not stopping it. */
  onFailure: (reason: string) => void;
}

/** How long Xvfb may take to report its display number before the start counts as failed. */
const START_TIMEOUT_MS = 10_000;

/**
 * The container-private virtual display: one Xvfb, started on the first
 * headed request and shared by every later one (each browser still gets its
 * own context; the display only holds windows). Never started for headless use.
 */
export class Display {
  #options: DisplayOptions;
  #starting: Promise<string> | undefined;
  #process: ChildProcess | undefined;
  #number: number | undefined;
  #stopping = false;
  #failed: string | undefined;

  constructor(options: DisplayOptions) {
    this.#options = options;
  }

  /** The child, for the shutdown sequence; undefined if never started. */
  get process(): ChildProcess | undefined {
    return this.#process;
  }

  /** Reported its display number and has not failed: from then on the health check probes it. */
  get ready(): boolean {
    return this.#number !== undefined && !this.#failed;
  }

  /** `:n` once usable; concurrent callers share one start. */
  ensure(): Promise<string> {
    if (this.#failed) return Promise.reject(new Error(this.#failed));
    if (this.#stopping) return Promise.reject(new Error('the launcher is shutting down'));
    this.#starting ??= this.#start();
    return this.#starting;
  }

  /** True when the started display completes an X11 handshake within `timeoutMs`. */
  async answers(timeoutMs: number): Promise<boolean> {
    if (this.#number === undefined || this.#failed) return false;
    return probeX11(displaySocket(this.#number), timeoutMs);
  }

  /** From now on an Xvfb exit is the shutdown's doing, not a failure. */
  markStopping(): void {
    this.#stopping = true;
  }

  #fail(reason: string): void {
    if (this.#failed || this.#stopping) return;
    this.#failed = reason;
    this.#options.log.error(`display: ${reason}`);
    this.#options.onFailure(reason);
  }

  #start(): Promise<string> {
    const { xvfbPath, screen, log } = this.#options;
    try {
      prepareSocketDir();
    } catch (error) {
      this.#fail((error as Error).message);
      return Promise.reject(error as Error);
    }
    const started = performance.now();
    // -displayfd: Xvfb picks a free display number itself and writes it to fd 3
    // only once it accepts clients, the robust readiness signal (no fixed :99 that
    // may be taken, no polling). No TCP listener; no -auth, so only processes
    // that can reach the socket (this container's) can connect.
    const child = spawn(xvfbPath, ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    this.#process = child;
    child.stderr!.setEncoding('utf8');
    // Xvfb is chatty about harmless things (xkbcomp warnings); keep them at
    // debug, and the last few for the error if it fails.
    const tail: string[] = [];
    child.stderr!.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (!line.trim()) continue;
        log.debug(`Xvfb: ${line.trim()}`);
        tail.push(line.trim());
        if (tail.length > 6) tail.shift();
      }
    });
    const said = () => (tail.length ? `; it said: ${tail.join(' | ')}` : '');

    return new Promise<string>((resolve, reject) => {
      let output = '';
      let settled = false;
      const settle = (error: Error | undefined, display?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          this.#fail(error.message);
          reject(error);
        } else resolve(display!);
      };
      const timer = setTimeout(() => {
        settle(new Error(`Xvfb (${xvfbPath}) did not report a display within ${START_TIMEOUT_MS / 1000} s`));
        child.kill('SIGKILL');
      }, START_TIMEOUT_MS);
      const fd3 = child.stdio[3] as NodeJS.ReadableStream;
      fd3.setEncoding('utf8');
      fd3.on('data', (chunk: string) => {
        output += chunk;
        const match = /^(\d+)\n/.exec(output);
        if (!match) return;
        this.#number = Number(match[1]);
        log.info(`display :${this.#number} ready (Xvfb ${screen}) in ${Math.round(performance.now() - started)} ms`);
        settle(undefined, `:${this.#number}`);
      });
      child.once('error', (error: NodeJS.ErrnoException) => {
        const fix = error.code === 'ENOENT' ? ` Fix: install Xvfb (Debian: apt-get install xvfb) or point --xvfb-path at it.` : '';
        settle(new Error(`could not start Xvfb (${xvfbPath}): ${error.message}.${fix}`));
      });
      child.once('exit', (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
        if (!settled) settle(new Error(`Xvfb ${how} before its display was ready${said()}`));
        else this.#fail(`Xvfb (display :${this.#number}) ${how}${said()}`);
      });
    });
  }
}

// X clients look for the socket in /tmp/.X11-unix, and Xvfb only creates that
// directory when it runs as root; on a read-only image with a bare /tmp tmpfs it
// would be missing, so make it (world-writable with the sticky bit, as X expects).
// One we cannot write to would fail every display number with EACCES: say so.
function prepareSocketDir(): void {
  const dir = '/tmp/.X11-unix';
  try {
    fs.mkdirSync(dir, { mode: 0o1777 });
    fs.chmodSync(dir, 0o1777);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    const mode = (fs.statSync(dir).mode & 0o7777).toString(8);
    throw new Error(
      `${dir} is not writable for this user (mode ${mode}), so Xvfb cannot create its socket. ` +
        `Fix: mount a tmpfs there with mode=1777 (podman/docker: --tmpfs /tmp/.X11-unix:rw,mode=1777), or leave it to the launcher with a writable /tmp.`,
    );
  }
}
