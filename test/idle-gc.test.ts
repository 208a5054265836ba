import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { testEnv } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';

// On Node, a server that has been without a tool call for a second runs one
// memory-reducing GC (V8 gives back the young generation it grew while
// working), never while calls keep coming, and again only once the process
// has grown since the last. What it saves is measured by
// npm run bench (server process PSS); here, when it runs.

const onNode = !process.env.STEALTH_TEST_SERVER;

interface Memory {
  heapTotalBytes: number;
  idleGcRuns: number;
}

describe('Node: one memory-reducing GC once tool calls stop', { skip: !onNode && 'the binary (Bun) does not run it' }, () => {
  const output = useTempDir('spm-idle-gc-');
  let site: Site;
  let server: HttpServer;
  const memory = async () => ((await (await fetch(`${server.origin}/healthz`)).json()) as { memory: Memory }).memory;
  const waitForRuns = async (runs: number) => {
    const deadline = Date.now() + 15_000;
    let now = await memory();
    while (now.idleGcRuns < runs && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      now = await memory();
    }
    return now;
  };

  before(async () => {
    site = await startSite();
    server = await startHttpServer(testEnv(output.path));
  });
  after(async () => {
    await server?.stop();
    await site?.close();
  });

  test('after a call, idle: runs once; back-to-back calls: not at all; idle again: once more; after one small call: not again', { timeout: 120_000 }, async () => {
    assert.equal((await memory()).idleGcRuns, 0, 'nothing ran before any tool call');
    const { client } = await httpClient(server.url);
    const nav = await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    assert.ok(!nav.isError, JSON.stringify(nav));
    const afterIdle = await waitForRuns(1);
    assert.equal(afterIdle.idleGcRuns, 1, 'one GC after the first call, once idle');
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal((await memory()).idleGcRuns, 1, 'idle longer: no second GC without new calls');

    // Calls with no pause between them for ~4 s: the server is never idle for a second.
    const until = Date.now() + 4000;
    let calls = 0;
    while (Date.now() < until) {
      const snap = await client.callTool({ name: 'browser_snapshot', arguments: {} });
      assert.ok(!snap.isError);
      calls++;
    }
    assert.equal((await memory()).idleGcRuns, 1, `no GC during ${calls} back-to-back calls`);
    const again = await waitForRuns(2);
    assert.equal(again.idleGcRuns, 2, 'one more once the calls stopped');

    // One call, as after an agent's turn: it grows the process by a MB or two,
    // not worth a GC whose cost the next call would pay.
    const one = await client.callTool({ name: 'browser_snapshot', arguments: {} });
    assert.ok(!one.isError);
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal((await memory()).idleGcRuns, 2, 'no GC after one more call: the process grew too little since the last');
    await client.close();
  });
});
