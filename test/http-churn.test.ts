import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { chromiumProcessesWith, waitFor } from './helpers/processes.ts';
import { testEnv, textOf } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

// Issue 9 reliability: 200 HTTP sessions come and go, ended three ways (DELETE;
// idle expiry while the client keeps its notification stream open; the client
// vanishing without DELETE, which also ends in expiry). Afterwards no session,
// no Chromium of this server, and the heap has not grown with the sessions.
// Every tenth session launches a browser; the rest are cheap (no browser), so
// the run stays short while the browser path is still churned 20 times.

const SESSIONS = 200;
const WAVE = 20;
const IDLE_TTL_MS = 2_000;
// Heap growth allowed over the whole run. Measured after a forced GC (the
// server runs with --expose-gc when it is Node); per session this is ~160 kB,
// far below what one leaked session (upstream server, tool list, transport) holds.
const HEAP_BOUND_MB = 32;
const HEAP_BOUND_NO_GC_MB = 96;

type Ending = 'delete' | 'idle' | 'vanish';
const ENDINGS: Ending[] = ['delete', 'idle', 'vanish'];

interface Memory {
  rssBytes: number;
  heapUsedBytes: number;
  afterGc: boolean;
}

describe('200 HTTP sessions created and closed', { timeout: 300_000 }, () => {
  const site = useSite();
  const output = useTempDir('spm-churn-');
  let runtimeDir: string;
  let server: HttpServer;

  before(async () => {
    runtimeDir = path.join(output.path, 'run');
    const env = testEnv(output.path, { STEALTH_PLAYWRIGHT_MCP_RUNTIME_DIR: runtimeDir, NODE_OPTIONS: '--expose-gc' });
    server = await startHttpServer(env, ['--http-session-idle-ttl-ms', String(IDLE_TTL_MS), '--http-session-max', String(SESSIONS + WAVE)]);
  });
  after(async () => {
    await server?.stop();
  });

  const readyz = async () => ((await (await fetch(`${server.origin}/readyz`)).json()) as { sessions: { active: number; pending: number } }).sessions;
  const memory = async () => ((await (await fetch(`${server.origin}/healthz`)).json()) as { memory: Memory }).memory;
  const drained = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const s = await readyz();
      if (s.active === 0 && s.pending === 0) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  };

  /** One session: initialize, a little work, then the given ending. Returns a client left open (idle), if any. */
  async function session(n: number, ending: Ending, withBrowser: boolean) {
    const c = await httpClient(server.url);
    const { tools } = await c.client.listTools();
    assert.ok(tools.length > 0);
    if (withBrowser) {
      const nav = await c.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } }, undefined, { timeout: 60_000 });
      assert.ok(!nav.isError, `session ${n}: ${textOf(nav)}`);
    } else {
      const info = await c.client.callTool({ name: 'stealth_bridge_info', arguments: {} });
      assert.ok(!info.isError);
    }
    if (ending === 'delete') {
      await c.transport.terminateSession();
      await c.client.close();
      return undefined;
    }
    // Vanishing: the sockets close, no DELETE is sent; the server only learns by expiry.
    if (ending === 'vanish') {
      await c.transport.close();
      return undefined;
    }
    return c; // idle: connected, silent
  }

  test(`${SESSIONS} sessions (every 10th with a browser; DELETE, idle expiry, vanished client): nothing left, heap bounded`, async (t) => {
    // Warm-up: the first sessions load modules and fill caches that stay; measure after them.
    for (let i = 0; i < 5; i++) await session(-i, 'delete', i === 0);
    assert.ok(await drained(30_000));
    const start = await memory();
    assert.ok(start, '/healthz reports memory at log level debug');

    const idle: NonNullable<Awaited<ReturnType<typeof session>>>[] = [];
    const counts = { delete: 0, idle: 0, vanish: 0, browser: 0 };
    for (let wave = 0; wave < SESSIONS / WAVE; wave++) {
      const results = await Promise.all(
        Array.from({ length: WAVE }, (_, i) => {
          const n = wave * WAVE + i;
          const ending = ENDINGS[n % ENDINGS.length]!;
          const withBrowser = n % 10 === 0;
          counts[ending]++;
          if (withBrowser) counts.browser++;
          return session(n, ending, withBrowser);
        }),
      );
      for (const c of results) if (c) idle.push(c);
    }
    assert.ok(await drained(120_000), `sessions left: ${JSON.stringify(await readyz())}`);
    for (const c of idle) await c.client.close();

    assert.ok(await waitFor(() => server.browsers().length === 0, 15_000), `Chromium left under the server: ${server.browsers().length}`);
    const record = fs.readdirSync(runtimeDir).find((f) => f.endsWith('.json'))!;
    const marker = `--stealth-playwright-mcp-instance=${record.replace(/\.json$/, '')}`;
    assert.deepEqual(chromiumProcessesWith(marker), [], 'no Chromium of this server anywhere (orphans included)');
    assert.doesNotMatch(server.stderr(), /request failed/, 'no request ended in a 500');
    // Each ending took its own path: the idle and vanished sessions were expired, not deleted.
    // (A session leaves /readyz when its close starts; the log line comes once it is done.)
    const closed = (why: string) => server.stderr().split('\n').filter((line) => line.includes(`closed (${why})`)).length;
    await waitFor(() => closed('idle') >= counts.idle + counts.vanish && closed('deleted by client') >= counts.delete, 15_000);
    assert.ok(closed('idle') >= counts.idle + counts.vanish, `idle expiries: ${closed('idle')}`);
    assert.ok(closed('deleted by client') >= counts.delete, `deletes: ${closed('deleted by client')}`);

    const end = await memory();
    const growthMb = (end.heapUsedBytes - start.heapUsedBytes) / 2 ** 20;
    const rssGrowthMb = (end.rssBytes - start.rssBytes) / 2 ** 20;
    t.diagnostic(
      `endings ${JSON.stringify(counts)}; heap ${(start.heapUsedBytes / 2 ** 20).toFixed(1)} → ${(end.heapUsedBytes / 2 ** 20).toFixed(1)} MB ` +
        `(${growthMb >= 0 ? '+' : ''}${growthMb.toFixed(1)} MB${end.afterGc ? ', after GC' : ', no GC available'}); ` +
        `RSS ${(start.rssBytes / 2 ** 20).toFixed(0)} → ${(end.rssBytes / 2 ** 20).toFixed(0)} MB (${rssGrowthMb >= 0 ? '+' : ''}${rssGrowthMb.toFixed(0)} MB)`,
    );
    assert.ok(growthMb < (end.afterGc ? HEAP_BOUND_MB : HEAP_BOUND_NO_GC_MB), `heap grew by ${growthMb.toFixed(1)} MB over ${SESSIONS} sessions`);
  });
});
