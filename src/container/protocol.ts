import net from 'node:net';

// The launcher and its server child talk over a private Unix socket, one JSON
// object per line, in both directions:
//   server → launcher  {"id":1,"type":"display"}      → {"id":1,"ok":true,"display":":0"} | {"id":1,"ok":false,"error":"…"}
//   launcher → server  {"id":7,"type":"ping"}         → {"id":7,"type":"pong","pid":123}
// The health command and the launcher talk over the health socket the same way:
//   {"type":"health"} → {"ok":true|false,"server":"…","display":"…"}
// Plain sockets rather than an IPC channel: they work the same on Node and on
// the Bun-compiled binary, and need no fd layout shared with the child.

/** The environment variable through which the launcher hands its child the control socket path. */
export const CONTROL_ENV = 'STEALTH_PLAYWRIGHT_MCP_LAUNCHER_CONTROL';

/** Longest line either side accepts: anything longer is not ours. */
export const MAX_LINE = 4096;

export type Message = Record<string, unknown>;

/** Calls `onMessage` for every complete JSON line; destroys the socket on garbage or overlong lines. */
export function readLines(socket: net.Socket, onMessage: (message: Message) => void): void {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        socket.destroy();
        return;
      }
      if (message === null || typeof message !== 'object' || Array.isArray(message)) {
        socket.destroy();
        return;
      }
      onMessage(message as Message);
    }
    if (buffer.length > MAX_LINE) socket.destroy();
  });
}

export function writeLine(socket: net.Socket, message: Message): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(message)}\n`);
}
