import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { browserProcessesOf, waitFor } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { startToolSite, type ToolSite } from './helpers/tool-site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// --idle-timeout, as a user's upstream command line sets it: the browser is
// closed after that long without a call, and the next call runs in a new one.
// The same calls on the upstream CLI in the same run read the same.
// The upstream counts from the start of the last call (backend callTool
// pokes its timer): a first navigate slower than the timeout (a launch on a
// loaded machine, over 1.5 s in a CI run) has its browser closed under it.
// 5 s stays clear of that.
const IDLE_MS = 5000;
const IDLE = ['--idle-timeout', String(IDLE_MS)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drive(server: Connected, site: string): Promise<{ texts: string[]; browsersWhileIdle: number[] }> {
  const texts: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await server.client.callTool({ name, arguments: args });
    texts.push(`${name} error=${!!result.isError}\n${textOf(result).replaceAll(site, 'SITE').replace(/\]\([^)]*\)/g, '](FILE)')}`);
  };
  await call('browser_navigate', { url: `${site}/form` });
  assert.ok(browserProcessesOf(server.transport.pid).length > 0, 'a browser runs after the navigate');
  await waitFor(() => browserProcessesOf(server.transport.pid).length === 0, IDLE_MS + 10_000);
  const browsersWhileIdle = browserProcessesOf(server.transport.pid);
  await call('browser_evaluate', { function: '() => location.href' });
  await call('browser_tabs', { action: 'list' });
  await call('browser_navigate', { url: `${site}/second` });
  await sleep(IDLE_MS + 1500);
  await call('browser_snapshot');
  return { texts, browsersWhileIdle };
}

describe('--idle-timeout closes an idle browser and the next call launches a new one, as under the upstream CLI', () => {
  const dirs = useTempDir('spm-idle-');
  let site: ToolSite;
  const servers: Connected[] = [];
  let ours: Awaited<ReturnType<typeof drive>>;
  let upstream: Awaited<ReturnType<typeof drive>>;
  before(async () => {
    site = await startToolSite();
    servers.push(await connect(testEnv(`${dirs.path}/ours`), IDLE), await connectUpstream(`${dirs.path}/upstream`, IDLE));
    ours = await drive(servers[0]!, site.url);
    upstream = await drive(servers[1]!, site.url);
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test('the browser process is gone while idle, on both', () => {
    assert.deepEqual(ours.browsersWhileIdle, []);
    assert.deepEqual(upstream.browsersWhileIdle, []);
  });

  test('every call after the close reads the same: a fresh blank page, then the session goes on', () => {
    assert.deepEqual(ours.texts, upstream.texts);
    assert.match(ours.texts[1]!, /### Result\n"about:blank"/);
    assert.match(ours.texts.at(-1)!, /Page URL: about:blank/);
  });

  test('a call longer than the timeout keeps its browser (the countdown starts when calls end)', async () => {
    const { client } = servers[0]!;
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
    const waited = await client.callTool({ name: 'browser_wait_for', arguments: { time: IDLE_MS / 1000 + 1.5 } });
    assert.equal(waited.isError, undefined, textOf(waited));
    const title = textOf(await client.callTool({ name: 'browser_evaluate', arguments: { function: '() => document.title' } }));
    assert.match(title, /### Result\n"Second"/);
  });
});
