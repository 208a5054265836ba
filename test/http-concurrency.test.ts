import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { waitFor } from './helpers/processes.ts';
import { testEnv, textOf } from './helpers/server.ts';
import { leftInTmp, useSite, useTempDir } from './helpers/fixtures.ts';

// Issue 9 reliability: as many concurrent HTTP sessions as the default cap
// (32), each launching its own browser, navigating and taking a snapshot. All
// must complete. That is 32 Chromiums at once: on a 2-core machine it takes a
// minute or more, so every wait is generous and nothing is timed.
// STEALTH_TEST_CONCURRENT_SESSIONS lowers the count (e.g. on a small CI runner).
// The navigation timeout is raised as an operator running that many on 2
// cores would: at the default (60 s; the bridge answers a call 3 s later) a
// CI run had 31 of the 32 first navigates (launch, new page, load, snapshot)
// cut at 63 s, before the bridge's deadline stopped counting the launch
// (test/slow-launch.test.ts); the load alone may still take that long here.

const SESSIONS = Number(process.env.STEALTH_TEST_CONCURRENT_SESSIONS ?? 32);
const CALL_TIMEOUT_MS = 240_000;

describe(`${SESSIONS} concurrent HTTP sessions (the default cap)`, { timeout: 600_000 }, () => {
  const site = useSite();
  const output = useTempDir('spm-concurrent-');
  let server: HttpServer;

  before(async () => {
    // Default cap: no --http-session-max.
    // A temp dir of its own: the sessions' throwaway profiles are counted there.
    fs.mkdirSync(path.join(output.path, 'tmp'));
    server = await startHttpServer(testEnv(output.path, { STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'info', TMPDIR: path.join(output.path, 'tmp') }), ['--timeout-navigation', '180000']);
  });
  after(async () => {
    await server?.stop();
  });

  test('each navigates and snapshots its own page; all complete, then everything closes', async (t) => {
    const started = Date.now();
    const clients = await Promise.all(Array.from({ length: SESSIONS }, () => httpClient(server.url)));
    const readyz = await fetch(`${server.origin}/readyz`);
    const body = (await readyz.json()) as { sessions: { active: number; max: number } };
    assert.equal(body.sessions.active, SESSIONS);
    if (SESSIONS === body.sessions.max) assert.equal(readyz.status, 503, 'at the cap, /readyz says full');

    const outcomes = await Promise.allSettled(
      clients.map(async (c, i) => {
        const opts = { timeout: CALL_TIMEOUT_MS, resetTimeoutOnProgress: true };
        const nav = await c.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } }, undefined, opts);
        assert.ok(!nav.isError, `session ${i} navigate: ${textOf(nav).slice(0, 500)}`);
        const snap = await c.client.callTool({ name: 'browser_snapshot', arguments: {} }, undefined, opts);
        assert.ok(!snap.isError, `session ${i} snapshot: ${textOf(snap).slice(0, 500)}`);
        assert.match(textOf(snap), /button "Click me"/);
      }),
    );
    const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [`session ${i}: ${(o.reason as Error)?.message}`] : []));
    const peakBrowsers = server.browsers().length;
    t.diagnostic(`${SESSIONS} sessions: navigate+snapshot done in ${Math.round((Date.now() - started) / 1000)} s (load average ${os.loadavg().map((l) => l.toFixed(1)).join('/')}, ${os.cpus().length} cores); ${peakBrowsers} Chromium processes at the end`);

    await Promise.all(clients.map(async (c) => {
      await c.transport.terminateSession().catch(() => {});
      await c.client.close();
    }));
    assert.deepEqual(failed, [], 'every session completed');
    assert.ok(await waitFor(() => server.browsers().length === 0, 30_000), `Chromium left: ${server.browsers().length}`);
    assert.doesNotMatch(server.stderr(), /request failed/);
    // Stopped at once, as an operator's restart may: Playwright was still removing the
    // closed browsers' profiles (seconds, with this many), and the exit cut that short.
    await server.stop();
    const left = leftInTmp(path.join(output.path, 'tmp'));
    assert.deepEqual(left, [], 'no throwaway profile (or its socket dir) outlives the server');
  });
});
