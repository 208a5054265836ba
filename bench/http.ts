import { spawn } from 'node:child_process';
import net from 'node:net';
import { assertRunning, onCleanup, TreeWatch, withTimeout } from './cleanup.ts';
import { treeMemory } from './proc.ts';
import { startStdio, type StdioServer, type Variant } from './servers.ts';

// Our server in HTTP mode, and the upstream baseline for n clients (one CLI
// child each). Used by the HTTP measures 2b, 4b, 5b (bench/measures/*-http.ts).
// Cost note: 16 sessions means 16 browsers for ours and 16 CLI children + 16
// browsers for the baseline (~7 GB PSS together); those counts run few times.

export const HTTP_SESSION_COUNTS = [1, 4, 8, 16] as const;
export const HTTP_THROUGHPUT_SESSIONS = 8;

export interface HttpServer {
  pid: number;
  url: string;
  close(): Promise<void>;
}

interface PoolInfo {
  size: number;
  ready: number;
  launching: number;
}

async function poolInfo(readyzUrl: string): Promise<PoolInfo | undefined> {
  const answer = (await fetch(readyzUrl).then((r) => r.json(), () => undefined)) as { warmPool?: PoolInfo } | undefined;
  return answer?.warmPool;
}

/** Resolves once the server's warm pool (its /readyz) holds all its browsers ready. */
export async function untilPoolFull(readyzUrl: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = await poolInfo(readyzUrl);
    if (info && info.ready >= info.size) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the warm pool was not full within ${timeoutMs} ms`);
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

/** Ours, serving HTTP on a free loopback port; killed (whole tree) on close or bench cleanup. */
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

/**
 * The memory baseline for n sessions: n upstream CLI children (how the
 * closest existing product serves n clients), each with `url` open; returns
 * the summed PSS of all their trees in kB. Every child started is closed,
 * also when another failed to start.
 */
export async function upstreamChildrenPss(variant: Variant, n: number, url: string, settleMs: number): Promise<number> {
  const servers: StdioServer[] = [];
  try {
    await openInWaves(n, () => startStdio(variant), (server) => server.call('browser_navigate', { url }), servers);
    await new Promise((r) => setTimeout(r, settleMs));
    return servers.reduce((sum, s) => sum + treeMemory(s.pid).pssKb, 0);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

const WAVE = 4;

/**
 * Opens n sessions (or CLI children) WAVE at a time, each wave navigated
 * before the next starts, into `opened` (so the caller closes whatever was
 * opened, also when one failed). 16 CLI children launching 16 browsers at
 * once on 2 cores ran past the bench's call timeout (2026-11-26); memory is
 * read once all are open and settled, so the waves do not change it.
 */
export async function openInWaves<T>(n: number, open: () => Promise<T>, ready: (session: T) => Promise<unknown>, opened: T[]): Promise<void> {
  for (let first = 0; first < n; first += WAVE) {
    const wave = await Promise.allSettled(Array.from({ length: Math.min(WAVE, n - first) }, () => open()));
    const fresh = wave.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    opened.push(...fresh);
    const failed = wave.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    await Promise.all(fresh.map(ready));
  }
}
