import net from 'node:net';

// A display "answers" when its X server completes the connection setup
// handshake: the cheapest request that proves the server is accepting and
// processing clients (a socket file alone proves nothing once Xvfb hangs).
// Setup request: byte order 'l' (little endian), unused, protocol 11.0, no
// authorization (Xvfb started without -auth accepts local clients).
const SETUP = Buffer.from([0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

/** The Unix socket of display `:n`. */
export function displaySocket(display: number): string {
  return `/tmp/.X11-unix/X${display}`;
}

/** Resolves true when the X server at `socketPath` accepts a connection setup within `timeoutMs`. */
export function probeX11(socketPath: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => socket.write(SETUP));
    // First byte of the reply: 0 failed, 1 success, 2 authenticate.
    socket.once('data', (reply: Buffer) => done(reply[0] === 1));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}
