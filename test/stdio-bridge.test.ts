import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { connect, testEnv, textOf } from './helpers/server.ts';
import { useSession, useSite, useTempDir } from './helpers/fixtures.ts';

// One server for the whole flow, as an agent would use it: the tests run in order.
describe('stdio bridge on a real Chromium', () => {
  const site = useSite();
  const output = useTempDir('spm-stdio-');
  const server = useSession(() => connect(testEnv(output.path)));

  const call = (name: string, args: Record<string, unknown> = {}) => server.client.callTool({ name, arguments: args });

  test('initialize answers with our name, version and instructions', () => {
    assert.equal(server.client.getServerVersion()?.name, 'stealth-playwright-mcp');
    assert.match(server.client.getServerVersion()?.version ?? '', /^\d+\.\d+\.\d+/);
    assert.ok(server.client.getServerCapabilities()?.tools, 'tools capability');
    assert.match(server.client.getInstructions() ?? '', /browser_snapshot/);
  });

  test('tools/list is the upstream list, run_code_unsafe included over stdio as upstream, plus our two tools', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    for (const expected of ['browser_navigate', 'browser_snapshot', 'browser_click', 'browser_type', 'browser_take_screenshot', 'browser_console_messages', 'browser_close', 'browser_tabs', 'browser_evaluate'])
      assert.ok(names.includes(expected), `${expected} listed`);
    assert.ok(names.includes('browser_run_code_unsafe'), 'the local user who started the server may run code, as under the upstream CLI');
    assert.deepEqual(names.slice(-2), ['stealth_binary_info', 'stealth_bridge_info']);
    assert.equal(new Set(names).size, names.length, 'no duplicates');
    const navigate = tools.find((t) => t.name === 'browser_navigate')!;
    assert.deepEqual(navigate.inputSchema.required, ['url'], 'upstream schema passed through unchanged');
  });

  test('navigate to a page on 127.0.0.1 and snapshot it', async () => {
    const nav = await call('browser_navigate', { url: `${site.url}/` });
    assert.ok(!nav.isError, textOf(nav));
    assert.match(textOf(nav), /Page Title: Bridge test home/);
    const snap = await call('browser_snapshot');
    assert.match(textOf(snap), /button "Click me" \[ref=e\d+\]/);
    assert.match(textOf(snap), /textbox "Your name" \[ref=e\d+\]/);
  });

  test('type into a field and click a button by ref', async () => {
    const snap = textOf(await call('browser_snapshot'));
    const inputRef = snap.match(/textbox "Your name" \[ref=(e\d+)\]/)![1];
    const buttonRef = snap.match(/button "Click me" \[ref=(e\d+)\]/)![1];
    const typed = await call('browser_type', { target: inputRef, element: 'Your name', text: 'Ada' });
    assert.ok(!typed.isError, textOf(typed));
    const clicked = await call('browser_click', { target: buttonRef, element: 'Click me' });
    assert.ok(!clicked.isError, textOf(clicked));
    assert.match(textOf(await call('browser_snapshot')), /clicked Ada/);
  });

  test('screenshot returns a PNG image and writes it into the output dir, linked relative to the working directory as upstream', async () => {
    const shot = await call('browser_take_screenshot');
    const image = (shot.content as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === 'image');
    assert.equal(image?.mimeType, 'image/png');
    const png = Buffer.from(image!.data!, 'base64');
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(png.length > 1000);
    const link = textOf(shot).match(/\]\(([^)]+\.png)\)/)?.[1];
    assert.ok(link && !path.isAbsolute(link), `a relative link, as the upstream CLI gives: ${link}`);
    const file = path.resolve(process.cwd(), link);
    assert.equal(path.dirname(file), output.path);
    assert.ok(fs.existsSync(file));
  });

  test('console messages include the page logs', async () => {
    const text = textOf(await call('browser_console_messages', { level: 'debug' }));
    assert.match(text, /page loaded/);
    assert.match(text, /button clicked/);
    assert.match(text, /an error for the console/);
  });

  test('the page sees Chrome, not HeadlessChrome, and navigator.webdriver is false', async () => {
    await call('browser_navigate', { url: `${site.url}/ua` });
    const text = textOf(await call('browser_snapshot'));
    assert.match(text, /Chrome\/\d+/);
    assert.doesNotMatch(text, /HeadlessChrome/);
    assert.match(text, /webdriver=false/);
  });

  test('stealth_binary_info reports the binary and its version read from it', async () => {
    const result = await call('stealth_binary_info');
    const info = result.structuredContent as Record<string, unknown>;
    assert.equal(info.engine, 'stealth');
    assert.equal(info.source, 'custom');
    assert.equal(info.executablePath, testEnv('').STEALTH_BINARY_PATH);
    assert.match(String(info.version), /^\d+\.\d+\.\d+\.\d+$/);
    assert.deepEqual(JSON.parse(textOf(result)), info, 'text is the same JSON');
  });

  test('stealth_bridge_info reports the session, the upstream and the tool counts', async () => {
    const info = (await call('stealth_bridge_info')).structuredContent as Record<string, any>;
    assert.equal(info.name, 'stealth-playwright-mcp');
    assert.equal(info.transport, 'stdio');
    assert.equal(info.upstream.package, '@playwright/mcp');
    assert.equal(info.upstream.toolCount, 25);
    assert.deepEqual(info.localTools, ['stealth_binary_info', 'stealth_bridge_info']);
    assert.equal(info.session.headless, true);
    assert.equal(info.session.browserRunning, true);
    assert.equal(info.session.outputDir, output.path, 'over stdio, the output dir itself (as upstream), not a per-session dir');
  });

  test('browser_close, then the next call gets a fresh browser', async () => {
    const closed = await call('browser_close');
    assert.ok(!closed.isError, textOf(closed));
    const info = (await call('stealth_bridge_info')).structuredContent as Record<string, any>;
    assert.equal(info.session.browserRunning, false);
    const nav = await call('browser_navigate', { url: `${site.url}/second` });
    assert.ok(!nav.isError, textOf(nav));
    assert.match(textOf(nav), /Page Title: Second page/);
  });

  test('over stdio browser_run_code_unsafe runs as upstream; --allow-unsafe-code=false hides and refuses it', async () => {
    const ran = await call('browser_run_code_unsafe', { code: 'async (page) => await page.title()' });
    assert.ok(!ran.isError, textOf(ran));
    const locked = await connect(testEnv(output.path), ['--allow-unsafe-code=false']);
    try {
      assert.ok(!(await locked.client.listTools()).tools.some((t) => t.name === 'browser_run_code_unsafe'));
      await assert.rejects(locked.client.callTool({ name: 'browser_run_code_unsafe', arguments: { code: 'async (page) => 1' } }), /disabled.*--allow-unsafe-code/);
    } finally {
      await locked.client.close();
      await locked.transport.exit;
    }
  });

  test('upstream tool errors come back as isError results, not protocol errors', async () => {
    const result = await call('browser_click', { target: 'e9999', element: 'nothing' });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /### Error/);
  });

  test('client cancellation stops a long call and the session keeps working', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = server.client.callTool({ name: 'browser_wait_for', arguments: { time: 30 } }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(waiting, /abort/i);
    assert.ok(Date.now() - started < 10_000);
    const nav = await call('browser_navigate', { url: `${site.url}/` });
    assert.ok(!nav.isError, textOf(nav));
  });

  test('stdout carried nothing but JSON-RPC', () => {
    assert.ok(server.transport.stdoutLines.length > 10);
    assert.deepEqual(server.transport.nonJsonLines, []);
  });
});
