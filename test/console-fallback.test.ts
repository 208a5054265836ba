import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

// The real build hides console messages from the driver. STEALTH_TEST_CONSOLE_FALLBACK_ONLY
// makes the server ignore what the stock Chromium reports natively, so only the
// in-page recorder can answer browser_console_messages.
describe('console fallback (forced on)', () => {
  const site = useSite();
  const output = useTempDir('spm-console-');
  let server: Connected;

  before(async () => {
    server = await connect(testEnv(output.path, { STEALTH_TEST_CONSOLE_FALLBACK_ONLY: 'true' }));
  });
  after(async () => {
    await server?.client.close();
    await server?.transport.exit;
  });
  const call = (name: string, args: Record<string, unknown> = {}) => server.client.callTool({ name, arguments: args });

  test('browser_console_messages returns what the page logged, by level', async () => {
    const nav = await call('browser_navigate', { url: `${site.url}/` });
    assert.ok(!nav.isError, textOf(nav));
    const all = textOf(await call('browser_console_messages', { level: 'debug' }));
    assert.match(all, /Total messages: 3 \(Errors: 1, Warnings: 1\)/);
    assert.match(all, /\[LOG\] page loaded @ http:\/\/127\.0\.0\.1/);
    assert.match(all, /\[ERROR\] an error for the console/);
    assert.match(all, /\[WARNING\] a warning/);
    const errors = textOf(await call('browser_console_messages', { level: 'error' }));
    assert.match(errors, /an error for the console/);
    assert.doesNotMatch(errors, /page loaded/);
  });

  test('messages logged later (a click) are recorded too; a navigation starts a new list', async () => {
    const snap = textOf(await call('browser_snapshot'));
    const ref = snap.match(/button "Click me" \[ref=(e\d+)\]/)![1];
    await call('browser_click', { target: ref, element: 'Click me' });
    assert.match(textOf(await call('browser_console_messages')), /button clicked/);
    await call('browser_navigate', { url: `${site.url}/second` });
    assert.match(textOf(await call('browser_console_messages')), /Total messages: 0/);
  });

  test('stealth_bridge_info shows the fallback on', async () => {
    const info = (await call('stealth_bridge_info')).structuredContent as Record<string, any>;
    assert.equal(info.session.launch.consoleFallback, true);
    assert.match(server.transport.stderr, /TEST-ONLY overrides/);
  });
});
