import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connect, testEnv, textOf } from './helpers/server.ts';
import { useSession, useSite, useTempDir } from './helpers/fixtures.ts';
import { servePage } from './helpers/site.ts';

// Replaces the built-ins a recorder would call with spies that note any call
// made while the page itself is not calling them, then logs and throws.
const SPYING_PAGE = `<!doctype html><title>Spies</title><p id="seen">none</p><script>
  const seen = [];
  let mine = 0;
  const note = (label) => { if (mine) return; mine++; seen.push(label); mine--; };
  const spy = (owner, name, label) => {
    const original = owner[name];
    owner[name] = function (...args) { note(label); return original.apply(this, args); };
  };
  for (const name of ['push', 'shift', 'slice', 'map', 'join', 'concat', 'splice']) spy(Array.prototype, name, 'Array.' + name);
  spy(Date, 'now', 'Date.now');
  spy(JSON, 'stringify', 'JSON.stringify');
  const OriginalString = String;
  window.String = function (v) { note('String'); return OriginalString(v); };
  Object.defineProperty(ErrorEvent, Symbol.hasInstance, { value: () => { note('ErrorEvent.hasInstance'); return true; } });
  const message = Object.getOwnPropertyDescriptor(ErrorEvent.prototype, 'message').get;
  Object.defineProperty(ErrorEvent.prototype, 'message', { get() { note('ErrorEvent.message'); return message.call(this); } });
  console.log('spied', 42, { a: 1 });
  console.warn('spied warning');
  setTimeout(() => { throw new Error('spied error'); });
  setInterval(() => { mine++; document.getElementById('seen').textContent = seen.length ? seen.join(',') : 'none'; mine--; }, 50);
</script>`;

// The real build hides console messages from the driver. STEALTH_TEST_CONSOLE_FALLBACK_ONLY
// makes the server ignore what the stock Chromium reports natively, so only the
// in-page recorder can answer browser_console_messages.
describe('console fallback (forced on)', () => {
  const site = useSite();
  const output = useTempDir('spm-console-');
  const server = useSession(() => connect(testEnv(output.path, { STEALTH_TEST_CONSOLE_FALLBACK_ONLY: 'true' })));
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

  test("the recorder calls none of the page's built-ins: a page that spies on them sees nothing, and its messages are listed", async (t) => {
    const page = await servePage(SPYING_PAGE);
    t.after(() => page.close());
    await call('browser_navigate', { url: `${page.url}/` });
    await call('browser_wait_for', { text: 'none' }).catch(() => undefined);
    const listed = textOf(await call('browser_console_messages', { level: 'debug' }));
    assert.match(listed, /\[LOG\] spied 42 \[object\]/);
    assert.match(listed, /\[WARNING\] spied warning/);
    assert.match(listed, /\[ERROR\] Uncaught Error: spied error/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const seen = textOf(await call('browser_snapshot')).match(/paragraph[^:\n]*: (.*)/)?.[1];
    assert.equal(seen, 'none', 'the page saw the recorder call its built-ins');
  });

  test('stealth_bridge_info shows the fallback on', async () => {
    const info = (await call('stealth_bridge_info')).structuredContent as Record<string, any>;
    assert.equal(info.session.launch.consoleFallback, true);
    assert.match(server.transport.stderr, /TEST-ONLY overrides/);
  });
});
