import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// @playwright/mcp 0.0.86's browser_tabs takes `isolatedContext`: a named one
// is a browser.newContext() the upstream opens itself, beside the session's
// context. Here that context would miss everything the session sets up on its
// own (stealth, guards, hang recovery), so it is refused with the reason; the
// upstream CLI alongside shows the parameter is real.

describe('browser_tabs isolatedContext (upstream 0.0.86)', { timeout: 120_000 }, () => {
  const site = useSite();
  const dirs = useTempDir('spm-isolated-');
  const servers: Connected[] = [];
  let upstream: Connected;
  let ours: Connected;
  before(async () => {
    const [upstreamDir, oursDir] = ['upstream', 'ours'].map((name) => path.join(dirs.path, name)) as [string, string];
    for (const d of [upstreamDir, oursDir]) fs.mkdirSync(d, { recursive: true });
    upstream = await connectUpstream(upstreamDir);
    ours = await connect(testEnv(oursDir));
    servers.push(upstream, ours);
    for (const { client } of servers) await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
  });
  after(() => closeAll(servers));

  const newIsolated = (client: Connected['client'], name: string) => client.callTool({ name: 'browser_tabs', arguments: { action: 'new', url: `${site.url}/second`, isolatedContext: name } });

  test('the upstream opens a tab in a context of its own', async () => {
    const result = await newIsolated(upstream.client, 'research');
    assert.ok(!result.isError, textOf(result));
    assert.match(textOf(result), /second/i);
  });

  test('ours refuses a named one with the reason and what to do, and the session goes on', async () => {
    const result = await newIsolated(ours.client, 'research');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /Isolated contexts are not supported on this server \(browser_tabs isolatedContext "research"\)[^]*stealth[^]*open a new MCP session/);
    const tabs = textOf(await ours.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }));
    assert.match(tabs, /Bridge test home/);
    assert.doesNotMatch(tabs, /1: /, 'no second tab was opened');
  });

  test('"default" is the session\'s own context, on both', async () => {
    for (const { client } of [upstream, ours]) {
      const result = await newIsolated(client, 'default');
      assert.ok(!result.isError, textOf(result));
    }
  });
});
