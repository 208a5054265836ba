import fs from 'node:fs';
import net from 'node:net';
import type { Logger } from '../log.ts';
import { readLines, writeLine } from './protocol.ts';

export interface HealthReport {
  ok: boolean;
  server: 'ok' | 'no answer within 750 ms' | 'not connected' | 'stopping';
  display: 'not started' | 'ok' | 'no answer within 1 s' | 'failed';
}

/**
 * The private health socket: mode 0600, so only the container's own user (the
 * health command run by the orchestrator inside the container) can ask. Apart
 * from the HTTP probes, never touches an MCP transport or starts anything.
 */
export class HealthServer {
  #server: net.Server;
  #path: string;

  private constructor(server: net.Server, socketPath: string) {
    this.#server = server;
    this.#path = socketPath;
  }

  static async open(socketPath: string, check: () => Promise<HealthReport>, log: Logger): Promise<HealthServer> {
    await removeStale(socketPath);
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      // One request per connection; drop it if nothing sensible arrives soon.
      socket.setTimeout(3_000, () => socket.destroy());
      readLines(socket, (message) => {
        if (message.type !== 'health') {
          socket.destroy();
          return;
        }
        check().then(
          (report) => {
            writeLine(socket, { ...report });
            socket.end();
          },
          () => socket.destroy(),
        );
      });
    });
    // The umask makes the socket owner-only from the moment it exists (the chmod
    // after listen alone would leave a short window).
    const umask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error: NodeJS.ErrnoException) =>
          reject(new Error(`cannot listen on the health socket ${socketPath}: ${error.message}. Fix: point --health-socket (STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET) at a writable path.`)),
        );
        server.listen(socketPath, () => resolve());
      });
    } finally {
      process.umask(umask);
    }
    fs.chmodSync(socketPath, 0o600);
    log.debug(`launcher: health socket ${socketPath}`);
    return new HealthServer(server, socketPath);
  }

  close(): void {
    this.#server.close();
    fs.rmSync(this.#path, { force: true });
  }
}

// A socket file left by a launcher that died can be replaced; one that still
// answers belongs to a live launcher, and taking it over would blind its health.
async function removeStale(socketPath: string): Promise<void> {
  if (!fs.existsSync(socketPath)) return;
  const live = await new Promise<boolean>((resolve) => {
    const probe = net.createConnection(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) {
    throw new Error(`another launcher is answering on the health socket ${socketPath}. Fix: stop it, or give this one its own --health-socket (STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET).`);
  }
  fs.rmSync(socketPath, { force: true });
}
