import os from 'node:os';
import { withDeadline } from '../browser/deadline.ts';
import type { Logger } from '../log.ts';

export interface WarmPoolInfo {
  size: number;
  ready: number;
  launching: number;
  taken: number;
}

/** What the pool keeps warm: a whole session, browser launched and upstream connected. */
export interface Warmable {
  warmUp(): Promise<void>;
  /**
   * Handed to a client: what was left for this moment starts now. Resolves
   * once the client's first steps are done (never rejects).
   */
  taken(): Promise<void>;
  close(): Promise<void>;
  readonly alive: boolean;
  onGone(listener: () => void): void;
}

const RETRY_MS = [1000, 5000, 30_000];

// The refill after a take waits for the client that took a browser to get
// its first page and finish any call it already sent: a browser launch takes
// most of a core for a few hundred ms, and on a small machine it doubled the
// first navigate of a client that navigates the moment it is initialised.
// Never longer than this, so a busy client does not hold the pool empty.
const REFILL_AFTER_TAKE_MAX_MS = 2000;

// Launches at once while refilling: a browser start takes most of a core for
// a few hundred ms, and the clients that just took the pool's browsers are
// busy on the same cores. Half the cores, at least one.
const WARMING_AT_ONCE = Math.max(1, Math.floor(os.availableParallelism() / 2));

/**
 * Sessions prepared before a client asks (HTTP): browser launched with the
 * process-default profile and its own fingerprint seed, upstream connected;
 * its first page opens when a client takes it. Each goes to exactly one client and ends with it: never
 * reused. Taking one refills the pool in the background.
 */
export class WarmPool<T extends Warmable> {
  #size: number;
  #make: () => T;
  #log: Logger;
  #ready: T[] = [];
  #warming = new Set<T>();
  #taken = 0;
  /** Places of browsers just taken, not refilled until their clients' first steps are done. */
  #heldBack = 0;
  #failures = 0;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #room: () => number = () => Infinity;

  constructor(size: number, make: () => T, log: Logger) {
    this.#size = size;
    this.#make = make;
    this.#log = log;
  }

  /**
   * How many more sessions could start now (the session cap less those open
   * or opening): a browser beyond that could serve nobody, and at the cap it
   * would be one browser's memory more than the cap plans for.
   */
  limitTo(room: () => number): void {
    this.#room = room;
  }

  /** Prepares until the pool holds `size` (ready or warming), a few at a time, within the room left. */
  fill(): void {
    if (this.#closed) return;
    const target = Math.max(0, Math.min(this.#size - this.#heldBack, this.#room()));
    while (this.#ready.length + this.#warming.size > target && this.#ready.length) void this.#ready.pop()!.close();
    while (this.#ready.length + this.#warming.size < target && this.#warming.size < WARMING_AT_ONCE) this.#prepareOne();
  }

  #prepareOne(): void {
    const item = this.#make();
    this.#warming.add(item);
    item.warmUp().then(
      () => {
        this.#warming.delete(item);
        if (this.#closed) return void item.close();
        this.#failures = 0;
        this.#ready.push(item);
        // One that dies (OOM killer, crash) before a client takes it is replaced; no client sees it.
        item.onGone(() => this.#drop(item));
        this.fill();
      },
      (error: unknown) => {
        this.#warming.delete(item);
        void item.close();
        if (this.#closed) return;
        const wait = RETRY_MS[Math.min(this.#failures++, RETRY_MS.length - 1)]!;
        this.#log.warn(`warm session failed to start (retry in ${wait} ms): ${(error as Error).message.split('\n')[0]}`);
        this.#timer = setTimeout(() => this.fill(), wait);
      },
    );
  }

  #drop(item: T): void {
    const index = this.#ready.indexOf(item);
    if (index === -1) return;
    this.#ready.splice(index, 1);
    this.#log.warn('a warm browser exited before any client took it; replacing it');
    void item.close();
    this.fill();
  }

  /** A ready session for a new client, or undefined when none is ready. */
  take(): T | undefined {
    let item: T | undefined;
    while ((item = this.#ready.shift()) && !item.alive) void item.close();
    if (!item) {
      this.fill();
      return undefined;
    }
    this.#taken++;
    this.#heldBack++;
    void withDeadline(item.taken(), REFILL_AFTER_TAKE_MAX_MS).then(() => {
      this.#heldBack--;
      this.fill();
    });
    return item;
  }

  info(): WarmPoolInfo {
    return { size: this.#size, ready: this.#ready.length, launching: this.#warming.size, taken: this.#taken };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const all = [...this.#ready.splice(0), ...this.#warming];
    await Promise.allSettled(all.map((item) => item.close()));
  }
}
