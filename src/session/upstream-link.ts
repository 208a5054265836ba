import { pathToFileURL } from 'node:url';
import { Client, LinkedTransport, ListRootsRequestSchema } from '../mcp-sdk.ts';
import { createConnection } from '@playwright/mcp';
import type { BrowserContext } from 'playwright-core';
import type { UpstreamConfig } from '../config/upstream.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';

/**
 * The upstream Playwright MCP server, in-process, behind an in-memory client.
 * A remote client's roots never reach the upstream (it would treat the first
 * root as its workspace). With `workspaceDir` (HTTP) the in-memory client
 * offers that one directory as its root, so files the tools name explicitly
 * land in the session's directory, never in the server's working directory.
 */
export async function connectUpstream(config: UpstreamConfig, contextGetter: () => Promise<BrowserContext>, workspaceDir?: string): Promise<Client> {
  // The upstream's type names playwright's BrowserContext; ours is the same
  // pinned playwright-core, deduped to one copy.
  const server = await createConnection(config, contextGetter as Parameters<typeof createConnection>[1]);
  const [clientSide, serverSide] = LinkedTransport.pair();
  await server.connect(serverSide);
  const client = new Client({ name: `${PACKAGE_NAME}-bridge`, version: PACKAGE_VERSION }, { capabilities: workspaceDir ? { roots: {} } : {} });
  if (workspaceDir) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(workspaceDir).href, name: 'session' }] }));
  await client.connect(clientSide);
  return client;
}
