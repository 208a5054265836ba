import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isInitializeRequest } from '../mcp-initialize.ts';
import { SERVER_INFO, SERVER_OPTIONS } from '../session/server-identity.ts';

// The SDK's own values (types.js), which the real Server negotiates with;
// importing them would load the SDK's schemas before the browser starts.
// test/early-stdio.test.ts keeps the copy equal to the SDK's.
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
// The SDK's stdio read buffer limit (STDIO_DEFAULT_MAX_BUFFER_SIZE).
const MAX_BUFFER_BYTES = 10 * 1024 * 1024;

/** An initialize request as the SDK's Server would accept it (the old check: isInitializeRequest && isJSONRPCRequest). */
function initializeRequest(message: unknown): { id: RequestId; protocolVersion: string } | undefined {
  if (!isInitializeRequest(message)) return undefined;
  const { jsonrpc, id } = message as { jsonrpc?: unknown; id?: unknown };
  return jsonrpc === '2.0' && (typeof id === 'string' || typeof id === 'number') ? { id, protocolVersion: message.params.protocolVersion } : undefined;
}

/**
 * stdio that answers `initialize` at once, before the server is built.
 *
 * Building the session loads playwright-core and checks the browser, which
 * takes most of a second; the handshake does not need any of it, nor the SDK
 * (its schemas alone take ~60 ms on Node, ahead of the browser's launch).
 * Everything the client sends meanwhile is queued and replayed to the real
 * Server once it connects, the initialize request included (so the Server
 * learns the client's capabilities), and the Server's own, second answer to it
 * is dropped. Lines that are JSON but no JSON-RPC message go to the Server,
 * whose protocol layer reports and drops them (the SDK's stdio transport
 * drops them one step earlier).
 */
export class EarlyStdioTransport implements Transport {
  #buffer: Buffer | undefined;
  #queue: unknown[] = [];
  #connected = false;
  #answered: RequestId | undefined;
  #onAnswered: (() => void) | undefined;
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  #onData = (chunk: Buffer): void => {
    if ((this.#buffer?.length ?? 0) + chunk.length > MAX_BUFFER_BYTES) {
      this.#buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${MAX_BUFFER_BYTES} bytes`));
      void this.close();
      return;
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
    for (let end = this.#buffer.indexOf('\n'); end !== -1; end = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.toString('utf8', 0, end).replace(/\r$/, '');
      this.#buffer = this.#buffer.subarray(end + 1);
      try {
        this.#receive(JSON.parse(line));
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  };

  #onError = (error: Error): void => this.onerror?.(error);

  /** Starts reading stdin; call as early as possible. */
  async listen(): Promise<void> {
    process.stdin.on('data', this.#onData);
    process.stdin.on('error', this.#onError);
  }

  /**
   * Resolves once initialize is answered, or after `maxWaitMs`. Loading
   * playwright-core blocks the event loop, so the server waits for the
   * handshake (which clients send at once) before it starts loading.
   */
  handshake(maxWaitMs: number): Promise<void> {
    if (this.#answered !== undefined || this.#queue.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      this.#onAnswered = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  #receive(value: unknown): void {
    if (this.#connected) return this.#deliver(value);
    const initialize = this.#answered === undefined ? initializeRequest(value) : undefined;
    if (initialize) {
      this.#answered = initialize.id;
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(initialize.protocolVersion) ? initialize.protocolVersion : LATEST_PROTOCOL_VERSION;
      void this.#write({ jsonrpc: '2.0', id: initialize.id, result: { protocolVersion, capabilities: SERVER_OPTIONS.capabilities, serverInfo: SERVER_INFO, instructions: SERVER_OPTIONS.instructions } });
      this.#onAnswered?.();
    }
    this.#queue.push(value);
  }

  /** Called by `Server.connect`: hand over everything queued so far. */
  async start(): Promise<void> {
    this.#connected = true;
    for (const value of this.#queue.splice(0)) this.#deliver(value);
  }

  // Input is the client's: whatever the protocol layer throws on (a nesting
  // too deep to print, say) is reported and dropped, never fatal.
  #deliver(value: unknown): void {
    try {
      if ((value as { jsonrpc?: unknown } | null)?.jsonrpc !== '2.0') throw new Error('Not a JSON-RPC 2.0 message');
      this.onmessage?.(value as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#answered !== undefined && 'id' in message && message.id === this.#answered && !('method' in message)) {
      this.#answered = undefined;
      return;
    }
    await this.#write(message);
  }

  #write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (process.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else process.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    process.stdin.off('data', this.#onData);
    process.stdin.off('error', this.#onError);
    if (process.stdin.listenerCount('data') === 0) process.stdin.pause();
    this.#buffer = undefined;
    this.onclose?.();
  }
}
