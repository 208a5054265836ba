import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { CHROMIUM, connectUpstream } from './helpers/upstream-cli.ts';

// A browser slow to start (a loaded machine, 32 sessions launching at once, a
// cold disk): the upstream's timeouts count from its browser being up, so its
// first navigate succeeds however long the launch took. Ours must too: the
// bridge's own deadline for a call (the upstream's longest timeout + 3 s, 33 s
// with --timeout-navigation 1000) must not count the launch.
const LAUNCH_DELAY_S = 36;
const NAV_TIMEOUT = ['--timeout-navigation', '1000'];
const CALL = { timeout: 120_000 };

describe('a browser that takes longer to start than a call may take', { timeout: 180_000 }, () => {
  const site = useSite();
  const dir = useTempDir('spm-slow-launch-');
  const open: Connected[] = [];
  after(async () => {
    await Promise.all(open.map((c) => c.client.close().catch(() => {})));
  });

  test('the first navigate succeeds, prelaunched and lazy, as on the upstream CLI', async () => {
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
    for (const o of outcomes) {
      assert.ok(o.ok, `${o.who}: ${o.text}`);
      assert.match(o.text, /Page URL: http:\/\/127\.0\.0\.1/, o.who);
    }
    // The launch did outlast the bridge's deadline for a call (33 s), or this proves nothing.
    assert.ok(outcomes.every((o) => o.seconds >= 30), JSON.stringify(outcomes.map(({ who, seconds }) => ({ who, seconds }))));
  });
});
