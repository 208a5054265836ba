import net from 'node:net';

/** A listening socket on a leased port; closing it releases the lease. */
export interface Lease {
  port: number;
  server: net.Server;
}

export class PoolExhausted extends Error {
  override name = 'PoolExhausted';
}

/**
 * Leases ports from `first-last` by binding them: a port another program (or
 * another stdio server sharing the range) holds is skipped, and binding is
 * the lease, so there is no check-then-bind race.
 */
export class PortPool {
  readonly first: number;
  readonly last: number;
  readonly host: string;
  #leased = new Set<number>();

  constructor(range: { first: number; last: number }, host: string) {
    this.first = range.first;
    this.last = range.last;
    this.host = host;
  }

  get leased(): number {
    return this.#leased.size;
  }

  async lease(server: net.Server): Promise<Lease> {
    for (let port = this.first; port <= this.last; port++) {
      if (this.#leased.has(port)) continue;
      this.#leased.add(port);
      if (await listen(server, port, this.host)) {
        server.once('close', () => this.#leased.delete(port));
        return { port, server };
      }
      this.#leased.delete(port);
    }
    throw new PoolExhausted(`No CDP port is free in ${this.first}-${this.last} on ${this.host}`);
  }
}

function listen(server: net.Server, port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** A free loopback port for the browser's own debugging listener (never exposed). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
