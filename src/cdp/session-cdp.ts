import { metrics } from '../metrics/metrics.ts';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { Logger } from '../log.ts';
import { publicUrl, type PublicBase } from './discovery-rewrite.ts';
import { freeLoopbackPort, type PortPool } from './port-pool.ts';
import { createRelayServer } from './relay-listener.ts';

export interface CdpOptions {
  pool: PortPool;
  advertisedHost: string | undefined;
  advertisedScheme: 'http' | 'https';
  /** Launches the session's browser if it is not running. */
  ensureBrowser(): Promise<void>;
  /** CDP requests and attached clients count as session activity. */
  activity: { begin(): () => void };
  log: Logger;
}

export type CdpInfo = {
  enabled: true;
  url: string;
  port: number;
  bindHost: string;
  advertisedHost: string | null;
  scheme: 'http' | 'https';
  generation: number;
};

// 128 bits, URL-safe: the capability is the only credential of a CDP URL.
const newCapability = () => randomBytes(16).toString('base64url');

/**
 * A session's managed CDP access: one leased public port for the session's
 * life, and a capability path that changes with every browser, so a URL
 * grants access to one session's current browser and nothing else.
 */
export class SessionCdp {
  #options: CdpOptions;
  #capability = newCapability();
  #generation = 0;
  #internalPort: number | undefined;
  #server: http.Server;
  #dropAll: () => void;
  #port: number;

  private constructor(options: CdpOptions, server: http.Server, dropAll: () => void, port: number) {
    this.#options = options;
    this.#server = server;
    this.#dropAll = dropAll;
    this.#port = port;
  }

  /** Leases a port and starts listening; throws PoolExhausted when none is free. */
  static async open(options: CdpOptions): Promise<SessionCdp> {
    let cdp: SessionCdp | undefined;
    const { server, dropAll } = createRelayServer(
      {
        base: () => cdp!.#base(),
        internalPort: async () => {
          await options.ensureBrowser();
          if (cdp!.#internalPort === undefined) throw new Error('the browser has no debugging port');
          return cdp!.#internalPort;
        },
        allowedHosts: [options.pool.host, ...(options.advertisedHost ? [options.advertisedHost] : [])],
        activity: options.activity,
      },
      options.log,
    );
    const { port } = await options.pool.lease(server);
    metrics.cdpLeases.inc();
    cdp = new SessionCdp(options, server, dropAll, port);
    return cdp;
  }

  #base(): PublicBase {
    return {
      scheme: this.#options.advertisedScheme,
      host: this.#options.advertisedHost ?? this.#options.pool.host,
      port: this.#port,
      capability: this.#capability,
    };
  }

  /** Arguments for the next browser launch: its debugging port, loopback only. */
  async launchArgs(): Promise<string[]> {
    this.#internalPort = await freeLoopbackPort();
    this.#generation++;
    return [`--remote-debugging-port=${this.#internalPort}`, '--remote-debugging-address=127.0.0.1'];
  }

  /** The browser ended (closed, crashed): its URL stops working and a new one is published. */
  browserGone(): void {
    this.#capability = newCapability();
    this.#internalPort = undefined;
    this.#dropAll();
  }

  info(): CdpInfo {
    return {
      enabled: true,
      url: publicUrl(this.#base()),
      port: this.#port,
      bindHost: this.#options.pool.host,
      advertisedHost: this.#options.advertisedHost ?? null,
      scheme: this.#options.advertisedScheme,
      generation: this.#generation,
    };
  }

  async close(): Promise<void> {
    this.#dropAll();
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}
