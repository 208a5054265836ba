import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../log.ts';
import { readLines, writeLine, type Message } from './protocol.ts';

export interface ControlHandlers {
  /** A display request from the server: resolves to `:n` or rejects with the reason. */
  display: () => Promise<string>;
}

/**
 * The launcher's end of the server link. The socket lives in a fresh 0700
 * directory, so only this user can reach it; the server child learns the path
 * from CONTROL_ENV. It carries display requests (server → launcher) and
 * liveness pings (launcher → server).
 */
export class ControlServer {
  readonly path: string;
  #dir: string;
  #server: net.Server;
  #link: net.Socket | undefined;
  #nextId = 1;
  #pongs = new Map<number, () => void>();

  private constructor(dir: string, server: net.Server) {
    this.#dir = dir;
    this.path = path.join(dir, 'control.sock');
    this.#server = server;
  }

  static async open(handlers: ControlHandlers, log: Logger): Promise<ControlServer> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stealth-playwright-mcp-launcher-'));
    fs.chmodSync(dir, 0o700);
    let control: ControlServer;
    const server = net.createServer((socket) => control.#accept(socket, handlers, log));
    control = new ControlServer(dir, server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(control.path, () => resolve());
    });
    fs.chmodSync(control.path, 0o600);
    return control;
  }

  #accept(socket: net.Socket, handlers: ControlHandlers, log: Logger): void {
    // The latest connection is the server's link (it reconnects only if it restarted its side).
    this.#link = socket;
    socket.on('error', () => {});
    socket.on('close', () => {
      if (this.#link === socket) this.#link = undefined;
    });
    readLines(socket, (message: Message) => {
      if (message.type === 'pong' && typeof message.id === 'number') {
        this.#pongs.get(message.id)?.();
        return;
      }
      if (message.type === 'display') {
        const id = message.id;
        handlers.display().then(
          (display) => writeLine(socket, { id, ok: true, display }),
          (error: Error) => writeLine(socket, { id, ok: false, error: error.message }),
        );
        return;
      }
      log.debug(`launcher: ignoring control message ${JSON.stringify(message).slice(0, 200)}`);
    });
  }

  /** The server has connected its end of the link. */
  get connected(): boolean {
    return this.#link !== undefined;
  }

  /** True when the server's event loop answers a ping within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean> {
    const link = this.#link;
    if (!link) return Promise.resolve(false);
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pongs.delete(id);
        resolve(false);
      }, timeoutMs);
      this.#pongs.set(id, () => {
        clearTimeout(timer);
        this.#pongs.delete(id);
        resolve(true);
      });
      writeLine(link, { id, type: 'ping' });
    });
  }

  close(): void {
    this.#link?.destroy();
    this.#server.close();
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }
}
