import net from 'node:net';
import type { Logger } from '../log.ts';
import { setDisplayProvider } from './ensure-display.ts';
import { CONTROL_ENV, readLines, writeLine } from './protocol.ts';

/** A display start is bounded by the launcher (10 s); this only guards against a launcher that stops answering. */
const DISPLAY_REQUEST_MS = 20_000;

/**
 * The server's end of the launcher link, set up at start when the launcher
 * passed its control socket: answers liveness pings from the event loop (what
 * the health check measures) and provides the on-demand display. If the
 * launcher goes away, nothing supervises this server any more: it shuts down.
 */
export async function connectLauncher(socketPath: string, log: Logger): Promise<void> {
  const socket = net.createConnection(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error) =>
      reject(new Error(`cannot reach the launcher's control socket ${socketPath} (${CONTROL_ENV}): ${error.message}. Fix: unset ${CONTROL_ENV}; only the \`launcher\` command sets it, for its own server.`)),
    );
  });
  // The link must not keep the process alive: the transport decides that.
  socket.unref();
  socket.on('error', () => {});

  let nextId = 1;
  const pending = new Map<number, { resolve: (display: string) => void; reject: (error: Error) => void }>();
  readLines(socket, (message) => {
    if (message.type === 'ping') {
      writeLine(socket, { id: message.id, type: 'pong', pid: process.pid });
      return;
    }
    const waiter = typeof message.id === 'number' ? pending.get(message.id) : undefined;
    if (!waiter) return;
    pending.delete(message.id as number);
    if (message.ok === true && typeof message.display === 'string') waiter.resolve(message.display);
    else waiter.reject(new Error(`The container's virtual display could not start: ${String(message.error)}. Fix: set headless true for this session, or check the launcher's log.`));
  });
  socket.once('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('The launcher went away before it answered the display request.'));
    pending.clear();
    setDisplayProvider(undefined);
    log.error('launcher link closed: the launcher is gone; shutting down');
    process.kill(process.pid, 'SIGTERM');
  });

  let shared: Promise<string> | undefined;
  setDisplayProvider(() => {
    shared ??= new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`The launcher did not provide a display within ${DISPLAY_REQUEST_MS / 1000} s.`));
      }, DISPLAY_REQUEST_MS);
      timer.unref();
      pending.set(id, {
        resolve: (display) => (clearTimeout(timer), resolve(display)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      writeLine(socket, { id, type: 'display' });
    }).catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
    return shared;
  });
  log.debug(`launcher link: connected to ${socketPath}`);
}
