import type { Logger } from '../log.ts';
import { fetchJson } from './build-store/download.ts';

// A keyed build takes a licence seat for as long as it runs (a free key has
// one) and exits with code 76 when none is left. One browser per session means
// a second session can cost the first nothing but itself: refuse it before
// launch, with the reason, instead of letting its browser die.

export interface SeatCount {
  active: number;
  limit: number;
}

/** A launch that would take one seat more than the plan has. HTTP answers it with 503. */
export class SeatsInUse extends Error {
  override name = 'SeatsInUse';
}

/** POST /api/license/session/count {license_key} → {active, limit}; undefined when the vendor cannot say. Never cached. */
export async function countSeats(key: string, vendorOrigin: string): Promise<SeatCount | undefined> {
  const answer = await fetchJson<{ active?: unknown; limit?: unknown }>(
    `${vendorOrigin}/api/license/session/count`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: { license_key: key } },
    'the licence seat count',
  ).catch(() => undefined);
  const { active, limit } = answer ?? {};
  return Number.isInteger(active) && Number.isInteger(limit) && (limit as number) > 0 ? { active: active as number, limit: limit as number } : undefined;
}

/**
 * This process's keyed browsers, counted against the plan's seats. The
 * vendor's count lags a browser that is still starting, ours does not; the
 * larger of the two is what is in use. When the vendor cannot be asked, the
 * build itself still enforces its seats (exit 76, mapped to its own message).
 */
export class SeatLedger {
  #mine = 0;
  readonly #key: string;
  readonly #vendorOrigin: string;

  constructor(key: string, vendorOrigin: string) {
    this.#key = key;
    this.#vendorOrigin = vendorOrigin;
  }

  get mine(): number {
    return this.#mine;
  }

  /** Throws SeatsInUse when no seat is left for one more browser. */
  async #check(): Promise<SeatCount | undefined> {
    const count = await countSeats(this.#key, this.#vendorOrigin);
    if (!count) return undefined;
    const inUse = Math.max(count.active, this.#mine);
    if (inUse >= count.limit)
      throw new SeatsInUse(
        `No licence seat is free for another browser: the plan has ${count.limit} seat${count.limit === 1 ? '' : 's'}, ${inUse} in use (${this.#mine} by this server; each session runs its own browser, and each takes a seat). ` +
          `Fix: end another session or a browser elsewhere that uses this key, set --http-session-max to ${count.limit} or less, or add seats to the plan. A seat of a browser that was killed is freed by the vendor after 15 minutes.`,
      );
    return count;
  }

  /** Checks, then counts one browser of ours until the returned release is called (once). */
  async claim(log: Logger): Promise<() => void> {
    const count = await this.#check();
    this.#mine++;
    log.debug(`licence seat taken (${this.#mine} by this server${count ? `, plan limit ${count.limit}` : ', the vendor did not say the limit'})`);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#mine--;
    };
  }
}
