import { spawn } from 'node:child_process';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertRunning, onCleanup, TreeWatch, withTimeout } from './cleanup.ts';
import { treeMemory } from './proc.ts';
import type { MeasureResult } from './report-types.ts';
import { startStdio, type Variant } from './servers.ts';

// ---------------------------------------------------------------------------
// TODO(http): the HTTP half of issue 9 (measures 2b, 4b, 5b), not wired yet.
//
// The helpers below use the agreed interface (DESIGN.md §2: --transport
// streamable-http, --http-host, --http-port, endpoint /mcp) and the SDK's
// StreamableHTTPClientTransport. Checked once by hand against the HTTP
// transport as it landed (server up, 3 sessions, tools/list each); no measure
// uses them yet.
// To plug in, in bench/run.ts (search for "TODO(http)"):
//   2. first navigate: t0 = before openHttpSession(); navigate; compare with the
//      upstream CLI stdio figure (its only mode with a browser per client).
//   4. memory: for n of HTTP_SESSION_COUNTS: one startHttpServer() with n
//      sessions each navigated (openHttpSession + browser_navigate), read
//      treeMemory(server.pid); baseline: upstreamChildren(n) summed. Report
//      PSS per session and the ratio (target ≤ 0.75× per session).
//   5. throughput: HTTP_THROUGHPUT_SESSIONS sessions each calling
//      browser_snapshot in a loop for a fixed count; calls/s across all, p50/p95.
// Until then run.ts reports these as skipped (httpPending), never as numbers.
// Cost note: 16 sessions means 16 browsers for ours and 16 CLI children + 16
// browsers for the baseline (~7 GB PSS together); run those counts with few runs.
// ---------------------------------------------------------------------------

export const HTTP_SESSION_COUNTS = [1, 4, 8, 16] as const;
export const HTTP_THROUGHPUT_SESSIONS = 8;

/** What the report says for each HTTP measure until the transport exists. */
export function httpPending(): MeasureResult[] {
  const why = 'not wired yet: needs the HTTP measures plugged in (see TODO(http) in bench/http.ts)';
  return [
    { id: 'first-navigate-http', title: '2b. session start → first browser_navigate done (HTTP)', figures: [], notes: [], skipped: why },
    { id: 'memory-http', title: `4b. memory at ${HTTP_SESSION_COUNTS.join(', ')} concurrent HTTP sessions vs one upstream CLI child each`, figures: [], notes: [], skipped: why },
    { id: 'throughput-http', title: `5b. throughput across ${HTTP_THROUGHPUT_SESSIONS} HTTP sessions`, figures: [], notes: [], skipped: why },
  ];
}

export interface HttpServer {
  pid: number;
  url: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

/** Ours, serving HTTP on a free loopback port (TODO(http): not yet used by a measure). */
export async function startHttpServer(variant: Variant): Promise<HttpServer> {
  assertRunning();
  const port = await freePort();
  const args = [...variant.args, '--transport', 'streamable-http', '--http-host', '127.0.0.1', '--http-port', String(port)];
  const child = spawn(variant.command, args, { env: variant.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const watch = new TreeWatch(child.pid!);
  const forget = onCleanup(`${variant.id} http server`, () => watch.killEverything());
  try {
    await waitForPort(port, 30_000);
  } catch (error) {
    watch.killEverything();
    forget();
    throw new Error(`${(error as Error).message}\nstderr: ${stderr}`);
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid!,
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      child.kill('SIGTERM');
      await withTimeout(exited, 10_000, 'http server exit').catch(() => {});
      await watch.settle(3_000);
      watch.killEverything();
      forget();
    },
  };
}

/** One MCP session over Streamable HTTP (TODO(http): not yet used by a measure). */
export async function openHttpSession(url: string): Promise<Client> {
  const client = new Client({ name: 'spm-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/**
 * The memory baseline for n sessions: n upstream CLI children (how the
 * closest existing product serves n clients), each with `url` open; returns
 * the summed PSS of all their trees in kB.
 */
export async function upstreamChildrenPss(variant: Variant, n: number, url: string, settleMs: number): Promise<number> {
  const servers = await Promise.all(Array.from({ length: n }, () => startStdio(variant)));
  try {
    for (const server of servers) await server.call('browser_navigate', { url });
    await new Promise((r) => setTimeout(r, settleMs));
    return servers.reduce((sum, s) => sum + treeMemory(s.pid).pssKb, 0);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}
