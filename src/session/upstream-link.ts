import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createConnection } from '@playwright/mcp';
import type { BrowserContext } from 'playwright-core';
import type { UpstreamConfig } from '../config/upstream.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';

/**
 * The upstream Playwright MCP server, in-process, behind an in-memory client.
 * The client declares no `roots` capability, so a remote client's roots never
 * reach the upstream (it would treat the first root as its workspace).
 */
export async function connectUpstream(config: UpstreamConfig, contextGetter: () => Promise<BrowserContext>): Promise<Client> {
  // The upstream's type names playwright's BrowserContext; ours is the same
  // pinned playwright-core, deduped to one copy.
  const server = await createConnection(config, contextGetter as Parameters<typeof createConnection>[1]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: `${PACKAGE_NAME}-bridge`, version: PACKAGE_VERSION }, { capabilities: {} });
  await client.connect(clientSide);
  return client;
}
