import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserProcessesOf, commandLine, isAlive, waitFor } from './helpers/processes.ts';
import { connect, testEnv, textOf } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

// Every way a stdio server ends must take its Chromium with it, and exit 0.
describe('no Chromium outlives the server', () => {
  const site = useSite();
  const output = useTempDir('spm-life-');

  async function serverWithBrowser() {
    const server = await connect(testEnv(output.path));
    const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
    assert.ok(!nav.isError, textOf(nav));
    const browsers = browserProcessesOf(server.transport.pid);
    assert.ok(browsers.length > 0, 'the server has Chromium processes');
    return { ...server, browsers };
  }

  for (const [how, end] of [
    ['stdin EOF', (s: Awaited<ReturnType<typeof serverWithBrowser>>) => s.client.close()],
    ['SIGTERM', (s: Awaited<ReturnType<typeof serverWithBrowser>>) => s.transport.child!.kill('SIGTERM')],
    ['SIGINT', (s: Awaited<ReturnType<typeof serverWithBrowser>>) => s.transport.child!.kill('SIGINT')],
  ] as const) {
    test(`after ${how}: exit 0 within a few seconds and every Chromium process gone`, async () => {
      const server = await serverWithBrowser();
      const started = Date.now();
      await end(server);
      const exit = await server.transport.exit!;
      assert.deepEqual(exit, { code: 0, signal: null }, `stderr: ${server.transport.stderr}`);
      assert.ok(Date.now() - started < 6000, `exited in ${Date.now() - started} ms`);
      const gone = await waitFor(() => server.browsers.every((pid) => !isAlive(pid)), 3000);
      assert.ok(gone, `still alive: ${server.browsers.filter(isAlive).map(commandLine).join('\n')}`);
      assert.deepEqual(server.transport.nonJsonLines, []);
    });
  }

  test('a server that never launched a browser also exits 0 on EOF', async () => {
    const server = await connect(testEnv(output.path));
    await server.client.listTools();
    await server.client.close();
    assert.deepEqual(await server.transport.exit!, { code: 0, signal: null });
  });
});
