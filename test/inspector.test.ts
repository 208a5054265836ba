import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT, serverCommand, testEnv } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

const run = promisify(execFile);
const INSPECTOR = path.join(ROOT, 'node_modules', '.bin', 'mcp-inspector');

// An independent MCP client (the official Inspector, in CLI mode) against the server.
describe('MCP Inspector CLI', () => {
  const site = useSite();
  const output = useTempDir('spm-inspector-');

  async function inspect(...args: string[]) {
    const [command, baseArgs] = serverCommand();
    const env = Object.entries(testEnv(output.path)).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const { stdout } = await run(INSPECTOR, ['--cli', ...env, command, ...baseArgs, ...args], { timeout: 60_000, env: process.env });
    return JSON.parse(stdout);
  }

  test('tools/list shows the upstream tools and ours', async () => {
    const { tools } = await inspect('--method', 'tools/list');
    const names = tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes('browser_navigate'));
    assert.ok(names.includes('stealth_binary_info'));
    assert.ok(names.includes('stealth_bridge_info'));
  });

  test('tools/call browser_navigate loads a local page', async () => {
    const result = await inspect('--method', 'tools/call', '--tool-name', 'browser_navigate', '--tool-arg', `url=${site.url}/second`);
    assert.notEqual(result.isError, true);
    assert.match(result.content[0].text, /Page Title: Second page/);
  });

  test('tools/call stealth_bridge_info returns structured content', async () => {
    const result = await inspect('--method', 'tools/call', '--tool-name', 'stealth_bridge_info');
    assert.equal(result.structuredContent.name, 'stealth-playwright-mcp');
    assert.equal(result.structuredContent.transport, 'stdio');
  });

  // The server offers resources (the session's files): a client that sees the capability also asks for templates, as the Inspector's UI does on connect.
  test('resources/list and resources/templates/list answer', async () => {
    const { resources } = await inspect('--method', 'resources/list');
    assert.ok(Array.isArray(resources), JSON.stringify(resources));
    const { resourceTemplates } = await inspect('--method', 'resources/templates/list');
    assert.deepEqual(resourceTemplates, []);
  });
});
