import type { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server as SdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import type { SSEServerTransport as SdkSSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { StreamableHTTPServerTransport as SdkStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  CallToolRequestSchema as SdkCallToolRequestSchema,
  JSONRPCMessage,
  ListResourcesRequestSchema as SdkListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema as SdkListResourceTemplatesRequestSchema,
  ListRootsRequestSchema as SdkListRootsRequestSchema,
  ListToolsRequestSchema as SdkListToolsRequestSchema,
  ReadResourceRequestSchema as SdkReadResourceRequestSchema,
  ToolListChangedNotificationSchema as SdkToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { utilsBundle } from './playwright-bundles.ts';

export { isInitializeRequest } from './mcp-initialize.ts';

// The MCP SDK this process runs on is the copy the upstream already brings
// (bundled in playwright-core's utilsBundle, which every session loads): the
// upstream's own Server answers through it, and ours speaks to clients the
// way the upstream CLI does. A second copy (the npm package, with its zod)
// cost ~12 MB PSS and ~100 ms of loading on Node per process. The package
// stays for its types and for the tests' clients.

interface ZodLike {
  literal(value: string): unknown;
  string(): unknown;
  object(shape: Record<string, unknown>): { loose(): { optional(): unknown } };
}
interface Extendable {
  extend(shape: Record<string, unknown>): unknown;
  shape: { params: { unwrap(): { omit(keys: Record<string, true>): Extendable } } };
}

const bundle = (await utilsBundle()) as {
  Server: typeof SdkServer;
  Client: typeof SdkClient;
  StreamableHTTPServerTransport: typeof SdkStreamableHTTPServerTransport;
  SSEServerTransport: typeof SdkSSEServerTransport;
  CallToolRequestSchema: typeof SdkCallToolRequestSchema;
  ListToolsRequestSchema: typeof SdkListToolsRequestSchema & Extendable;
  ListRootsRequestSchema: typeof SdkListRootsRequestSchema;
  z: ZodLike;
};

export const { Server, Client, StreamableHTTPServerTransport, SSEServerTransport, CallToolRequestSchema, ListToolsRequestSchema, ListRootsRequestSchema } = bundle;
export type Server = SdkServer;
export type Client = SdkClient;
export type StreamableHTTPServerTransport = SdkStreamableHTTPServerTransport;
export type SSEServerTransport = SdkSSEServerTransport;

// The bundle exports the schemas the upstream uses; ours are built from them
// with its zod, as the SDK defines them (types.ts).
const { z } = bundle;
const paginated = bundle.ListToolsRequestSchema;
export const ListResourcesRequestSchema = paginated.extend({ method: z.literal('resources/list') }) as typeof SdkListResourcesRequestSchema;
export const ListResourceTemplatesRequestSchema = paginated.extend({ method: z.literal('resources/templates/list') }) as typeof SdkListResourceTemplatesRequestSchema;
export const ReadResourceRequestSchema = paginated.extend({
  method: z.literal('resources/read'),
  params: paginated.shape.params.unwrap().omit({ cursor: true }).extend({ uri: z.string() }),
}) as typeof SdkReadResourceRequestSchema;
export const ToolListChangedNotificationSchema = paginated.extend({
  method: z.literal('notifications/tools/list_changed'),
  params: z.object({}).loose().optional(),
}) as typeof SdkToolListChangedNotificationSchema;

/** The SDK's error codes (types.ts ErrorCode). */
export const ErrorCode = {
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** The SDK's McpError: a JSON-RPC error with this code and message reaches the client. */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(`MCP error ${code}: ${message}`);
    this.code = code;
    this.data = data;
    this.name = 'McpError';
  }
}

/** An error the SDK raised with this code (the bundle's McpError is not ours). */
export function isMcpError(error: unknown, code: number): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === code;
}

/** Two transports linked in memory (the SDK's InMemoryTransport, which the bundle does not export; no auth crosses this link). */
export class LinkedTransport implements Transport {
  #other: LinkedTransport | undefined;
  #queue: JSONRPCMessage[] = [];
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  static pair(): [LinkedTransport, LinkedTransport] {
    const a = new LinkedTransport();
    const b = new LinkedTransport();
    a.#other = b;
    b.#other = a;
    return [a, b];
  }

  async start(): Promise<void> {
    for (const message of this.#queue.splice(0)) this.onmessage?.(message);
  }

  async close(): Promise<void> {
    const other = this.#other;
    this.#other = undefined;
    await other?.close();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const other = this.#other;
    if (!other) throw new Error('Not connected');
    if (other.onmessage) other.onmessage(message);
    else other.#queue.push(message);
  }
}

