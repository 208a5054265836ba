import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A page that floods its console. Under the upstream every message is an
// event its server receives and keeps as it is logged: a page logging 2,000
// messages every 10 ms keeps it busy for good, and every later call times out
// (here a navigate to it, in the same run). Ours reads the console in brief
// syncs that keep only the last messages (quiet runtime), so each call
// answers, the console read is bounded, and the session goes on.

const KB = 1024;

describe('a page that floods its console', () => {
  const suite = useHostileSuite('spm-console-flood-');

  test('ours answers every call, lists a bounded console, and goes on (the upstream CLI alongside, in the same run)', { timeout: 180_000 }, async (t) => {
    const { site } = suite;
    const { upstream, ours } = await upstreamAndOurs(suite);
    const yardstick = async () => {
      const d = new Driver(upstream.client, site, 20_000);
      await d.go('/console-stream');
      return d.slow.length ? `its navigate to the streaming page: ${d.slow[0]!.slice(0, 120)}` : `its navigate answered in ${d.durations[0]} ms`;
    };
    const mine = async () => {
      const d = new Driver(ours.client, site);
      assert.match(await d.go('/console-stream'), /Page Title: Console stream/);
      assert.match(await d.call('browser_snapshot'), /heading "Stream"/);
      const streamed = await d.call('browser_console_messages', { level: 'info' });
      assert.match(streamed, /tick \d+/);
      assert.ok(streamed.length < 256 * KB, `a bounded console read (${streamed.length} characters)`);
      assert.match(await d.go('/console-burst'), /Page Title: Console burst/);
      const burst = await d.call('browser_console_messages', { level: 'info' });
      assert.match(burst, /message 49999/, 'the last message of the burst is listed');
      assert.ok(burst.length < 256 * KB, `a bounded console read (${burst.length} characters)`);
      assert.match(await d.go('/calm'), /Page Title: Calm page/);
      assert.deepEqual(d.slow, [], 'every call came back within its bound');
      return d.durations;
    };
    // One after the other: the upstream's swamped server would take a core from ours.
    const durations = await mine();
    const theirs = await yardstick();
    t.diagnostic(`upstream CLI: ${theirs}`);
    t.diagnostic(`ours: calls took ${durations.join(', ')} ms`);
  });
});
