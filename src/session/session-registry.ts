import { metrics } from '../metrics/metrics.ts';
import type { Logger } from '../log.ts';
import type { BridgeSession } from './bridge-session.ts';

interface Entry<T> {
  session: BridgeSession;
  /** The transport that carries this session's requests. */
  transport: T;
  lastSeen: number;
  inFlight: number;
}

export interface RegistryLimits {
  max: number;
  idleTtlMs: number;
}

/**
 * The live HTTP sessions: capacity (pending initializations count), idle
 * expiry (never while a request of the session is in flight), and closing
 * each session exactly once.
 */
export class SessionRegistry<T> {
  #entries = new Map<string, Entry<T>>();
  #closing = new Map<string, Promise<void>>();
  #pending = 0;
  #draining = false;
  #onSlots = new Set<() => void>();
  #sweeper: NodeJS.Timeout | undefined;
  readonly limits: RegistryLimits;
  #log: Logger;

  constructor(limits: RegistryLimits, log: Logger) {
    this.limits = limits;
    this.#log = log;
  }

  get active(): number {
    return this.#entries.size;
  }

  get pending(): number {
    return this.#pending;
  }

  /** A new session would be accepted now. */
  get ready(): boolean {
    return this.room > 0;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** Holds a slot while a session initializes; false when full or shutting down. */
  reserve(): boolean {
    if (!this.ready) return false;
    this.#pending++;
    return true;
  }

  /** Turns a reservation into a live session, or gives the slot back (no arguments). */
  settle(session?: BridgeSession, transport?: T): void {
    this.#pending--;
    if (session && transport) this.#entries.set(session.id, { session, transport, lastSeen: Date.now(), inFlight: 0 });
    this.#slotsChanged();
  }

  /** Sessions that could still start now. */
  get room(): number {
    return this.#draining ? 0 : this.limits.max - this.#entries.size - this.#pending;
  }

  /** Called when a session starts or ends, or an initialize fails. */
  onSlotsChanged(listener: () => void): void {
    this.#onSlots.add(listener);
  }

  #slotsChanged(): void {
    for (const listener of this.#onSlots) listener();
  }

  get(id: string): { session: BridgeSession; transport: T } | undefined {
    const entry = this.#entries.get(id);
    if (entry) entry.lastSeen = Date.now();
    return entry;
  }

  /** Marks a request of session `id` as running; call the returned function when it ends. */
  begin(id: string): () => void {
    const entry = this.#entries.get(id);
    if (!entry) return () => {};
    entry.inFlight++;
    entry.lastSeen = Date.now();
    return () => {
      entry.inFlight--;
      entry.lastSeen = Date.now();
    };
  }

  close(id: string, reason: string): Promise<void> {
    const existing = this.#closing.get(id);
    if (existing) return existing;
    const entry = this.#entries.get(id);
    if (!entry) return Promise.resolve();
    this.#entries.delete(id);
    metrics.sessionEnds.inc({ reason });
    this.#slotsChanged();
    const closing = entry.session
      .close()
      .catch((error: unknown) => this.#log.warn(`closing session ${id} failed:`, error))
      .then(() => {
        this.#closing.delete(id);
        this.#log.info(`session ${id} closed (${reason})`);
      });
    this.#closing.set(id, closing);
    return closing;
  }

  /** Closes sessions idle for longer than the TTL. */
  sweep(now = Date.now()): void {
    for (const [id, entry] of this.#entries) {
      const idle = Math.min(now - entry.lastSeen, entry.session.activity.idleFor(now));
      if (entry.inFlight === 0 && idle > this.limits.idleTtlMs) void this.close(id, 'idle');
    }
  }

  startSweeping(): void {
    const every = Math.max(250, Math.min(this.limits.idleTtlMs / 4, 60_000));
    this.#sweeper = setInterval(() => this.sweep(), every);
    this.#sweeper.unref();
  }

  /** Stops accepting sessions and closes all of them. */
  async drain(): Promise<void> {
    this.#draining = true;
    clearInterval(this.#sweeper);
    await Promise.all([...this.#entries.keys()].map((id) => this.close(id, 'shutdown')));
    await Promise.all(this.#closing.values());
  }
}
