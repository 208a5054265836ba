import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { withTimeout } from './cleanup.ts';
import type { StdioServer } from './servers.ts';

// One client session, whatever carries it (our HTTP server, or an upstream
// CLI child over stdio), so the HTTP measures treat both sides alike.

export interface BenchSession {
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  listTools(): Promise<unknown>;
  close(): Promise<void>;
}

const CALL_TIMEOUT_MS = 120_000;

/** initialize over Streamable HTTP; resolves once the session is open. */
export async function openHttpSession(url: string): Promise<BenchSession> {
  const client = new Client({ name: 'spm-bench', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await withTimeout(client.connect(transport), 60_000, 'http initialize');
  return {
    call: async (name, args = {}) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS })) as CallToolResult;
      if (result.isError) throw new Error(`http: ${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
      return result;
    },
    listTools: () => client.listTools(),
    // DELETE ends the session and its browser before the server answers.
    close: async () => {
      await withTimeout(transport.terminateSession(), 15_000, 'http DELETE').catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

export function stdioSession(server: StdioServer): BenchSession {
  return { call: (name, args) => server.call(name, args), listTools: () => server.client.listTools(), close: () => server.close() };
}
