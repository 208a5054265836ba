import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ListRootsResult } from '@modelcontextprotocol/sdk/types.js';
import { Client, LinkedTransport, ListRootsRequestSchema } from '../mcp-sdk.ts';
import { createConnection } from '@playwright/mcp';
import type { BrowserContext } from 'playwright-core';
import type { UpstreamConfig } from '../config/upstream.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';

/**
 * The workspace roots the upstream is given: over HTTP one directory, the
 * session's own (a remote client's roots never reach the upstream: it would
 * take the first as its workspace, and a client could claim `/`); over stdio
 * the client's own, asked of it when the upstream asks (its first tool call),
 * so files land in the client's workspace as under the upstream CLI.
 */
export type UpstreamRoots = { dir: string } | { ask: () => Promise<ListRootsResult> };

/** The upstream Playwright MCP server, in-process, behind an in-memory client. */
export async function connectUpstream(config: UpstreamConfig, contextGetter: () => Promise<BrowserContext>, roots: UpstreamRoots): Promise<Client> {
  // The upstream's type names playwright's BrowserContext; ours is the same
  // pinned playwright-core, deduped to one copy.
  const server = await createConnection(config, contextGetter as Parameters<typeof createConnection>[1]);
  const [clientSide, serverSide] = LinkedTransport.pair();
  await server.connect(serverSide);
  const client = new Client({ name: `${PACKAGE_NAME}-bridge`, version: PACKAGE_VERSION }, { capabilities: { roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ('dir' in roots ? { roots: [{ uri: pathToFileURL(roots.dir).href, name: 'session' }] } : roots.ask()));
  await client.connect(clientSide);
  return client;
}

/** The upstream's reading of a roots list (its server.ts firstRootPath): the first file: root, else the working directory. */
export function firstRootPath(roots: ListRootsResult['roots']): string {
  for (const root of roots) {
    try {
      return fileURLToPath(new URL(root.uri));
    } catch {
      // not a file: URI; the upstream skips it too
    }
  }
  return process.cwd();
}
