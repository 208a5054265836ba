import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVER_INFO, SERVER_OPTIONS } from '../session/server-identity.ts';

/**
 * stdio that answers `initialize` at once, before the server is built.
 *
 * Building the session loads playwright-core and checks the browser, which
 * takes most of a second; the handshake does not need any of it. Everything
 * the client sends meanwhile is queued and replayed to the real Server once it
 * connects, the initialize request included (so the Server learns the client's
 * capabilities), and the Server's own, second answer to it is dropped.
 */
export class EarlyStdioTransport implements Transport {
  #inner = new StdioServerTransport();
  #queue: JSONRPCMessage[] = [];
  #connected = false;
  #answered: RequestId | undefined;
  #onAnswered: (() => void) | undefined;
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /** Starts reading stdin; call as early as possible. */
  async listen(): Promise<void> {
    this.#inner.onmessage = (message) => this.#receive(message);
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    await this.#inner.start();
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

  #receive(message: JSONRPCMessage): void {
    if (this.#connected) return void this.onmessage?.(message);
    if (this.#answered === undefined && isInitializeRequest(message) && isJSONRPCRequest(message)) {
      this.#answered = message.id;
      const requested = message.params.protocolVersion;
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
      void this.#inner.send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion, capabilities: SERVER_OPTIONS.capabilities, serverInfo: SERVER_INFO, instructions: SERVER_OPTIONS.instructions } });
      this.#onAnswered?.();
    }
    this.#queue.push(message);
  }

  /** Called by `Server.connect`: hand over everything queued so far. */
  async start(): Promise<void> {
    this.#connected = true;
    for (const message of this.#queue.splice(0)) this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#answered !== undefined && 'id' in message && message.id === this.#answered && !('method' in message)) {
      this.#answered = undefined;
      return;
    }
    await this.#inner.send(message);
  }

  async close(): Promise<void> {
    await this.#inner.close();
  }
}
