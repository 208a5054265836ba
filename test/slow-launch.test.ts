import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { CHROMIUM, connectUpstream } from './helpers/upstream-cli.ts';

// A browser slow to start (a loaded machine, 32 sessions launching at once, a
// cold disk): the upstream's timeouts count from its browser being up, so its
// first navigate succeeds however long the launch took. Ours must too: the
// bridge's own deadline for a call (the upstream's longest timeout + 3 s, 33 s
// here) must not count the launch. A launch of 20 s, then a page that takes
// 15 s to load (inside the upstream's 20 s navigation timeout): 35 s in all.
const LAUNCH_DELAY_S = 20;
const PAGE_DELAY_MS = 15_000;
const NAV_TIMEOUT = ['--timeout-navigation', '20000'];
const CALL = { timeout: 120_000 };

describe('a browser that takes longer to start than a call may take', { timeout: 180_000 }, () => {
  const dir = useTempDir('spm-slow-launch-');
  const open: Connected[] = [];
  const slowPage = http.createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title><p>loaded</p>'), PAGE_DELAY_MS);
  });
  const site = { url: '' };
  before(async () => {
    await new Promise<void>((resolve) => slowPage.listen(0, '127.0.0.1', resolve));
    site.url = `http://127.0.0.1:${(slowPage.address() as AddressInfo).port}`;
  });
  after(async () => {
    // Each server finishes writing into its output dir before the dir is removed at exit.
    await Promise.all(open.map(async (c) => {
      await c.client.close().catch(() => {});
      await Promise.race([c.transport.exit, new Promise((r) => setTimeout(r, 15_000))]);
    }));
    // Chromium's favicon request may still be waiting on this server.
    slowPage.closeAllConnections();
    await new Promise<void>((resolve) => slowPage.close(() => resolve()));
  });

  test('the first navigate succeeds, prelaunched and lazy, as on the upstream CLI', async (t) => {
    // Only a real launch is slow; the version probes answer at once.
    const slow = path.join(dir.path, 'slow-chromium');
    fs.writeFileSync(slow, `#!/bin/sh\ncase " $* " in *" --remote-debugging-pipe "*) sleep ${LAUNCH_DELAY_S};; esac\nexec ${CHROMIUM} "$@"\n`, { mode: 0o755 });
    const env = (name: string) => testEnv(path.join(dir.path, name), { STEALTH_BINARY_PATH: slow, STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'info' });
    const runs = {
      upstream: connectUpstream(path.join(dir.path, 'up'), ['--executable-path', slow, ...NAV_TIMEOUT]),
      ours: connect(env('ours'), NAV_TIMEOUT),
      'ours, lazy launch': connect(env('lazy'), [...NAV_TIMEOUT, '--browser-prelaunch=false']),
    };
    const outcomes = await Promise.all(
      Object.entries(runs).map(async ([who, connecting]) => {
        const c = (await connecting) as Connected;
        open.push(c);
        const started = Date.now();
        const nav = await c.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } }, undefined, CALL);
        return { who, ok: !nav.isError, seconds: Math.round((Date.now() - started) / 1000), text: textOf(nav).slice(0, 300) };
      }),
    );
    t.diagnostic(`first navigate, s: ${JSON.stringify(Object.fromEntries(outcomes.map((o) => [o.who, o.seconds])))}`);
    for (const o of outcomes) {
      assert.ok(o.ok, `${o.who}: ${o.text}`);
      assert.match(o.text, /Page URL: http:\/\/127\.0\.0\.1/, o.who);
    }
    // Launch and load together did outlast the bridge's deadline for a call (33 s), or this proves nothing.
    assert.ok(outcomes.every((o) => o.seconds >= 34 || (o.who === 'ours' && o.seconds >= 20)), JSON.stringify(outcomes.map(({ who, seconds }) => ({ who, seconds }))));
    assert.match(outcomes.map((o) => o.text).join('\n'), /Page Title: Slow/);
  });
});
