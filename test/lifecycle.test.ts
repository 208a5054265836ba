import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { browserProcessesOf, commandLine, descendants, isAlive, waitFor } from './helpers/processes.ts';
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

  // The browser launched during the handshake opens its first page ahead; a
  // client gone in the meantime must not hold the server until its deadline.
  test('a client that leaves while the first page is still opening: exit 0 without the shutdown deadline, no Chromium left', async () => {
    for (let run = 0; run < 3; run++) {
      const server = await connect(testEnv(output.path));
      // Logged once the launched browser is set up, just before its first page opens.
      assert.ok(await waitFor(() => /console fallback/.test(server.transport.stderr), 15_000), server.transport.stderr);
      const browsers = browserProcessesOf(server.transport.pid);
      await server.client.close();
      assert.deepEqual(await server.transport.exit!, { code: 0, signal: null }, `stderr: ${server.transport.stderr}`);
      assert.doesNotMatch(server.transport.stderr, /shutdown took longer|exiting anyway/, `run ${run}`);
      assert.doesNotMatch(server.transport.stderr, /TypeError|uncaught/i, `run ${run}`);
      assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 3000), `still alive: ${browsers.filter(isAlive).map(commandLine).join('\n')}`);
    }
  });

  // Playwright's exit hook kills a browser that has not ended by the server's
  // exit; Chromium's socket dir in TMPDIR would outlive it.
  test('a browser that does not end when asked (stopped): killed at the exit, neither its profile nor its socket dir left in TMPDIR', async () => {
    const tmp = path.join(output.path, 'hung-tmp');
    fs.mkdirSync(tmp);
    const server = await connect(testEnv(output.path, { TMPDIR: tmp }));
    const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
    assert.ok(!nav.isError, textOf(nav));
    const left = () => fs.readdirSync(tmp).filter((name) => name.startsWith('org.chromium.Chromium.') || name.startsWith('playwright_chromiumdev_profile-'));
    assert.equal(left().filter((name) => name.startsWith('org.chromium.')).length, 1, `the running browser's socket dir: ${left()}`);
    const root = descendants(server.transport.pid).find((pid) => commandLine(pid).includes('--remote-debugging-pipe') && !commandLine(pid).includes('--type='))!;
    process.kill(root, 'SIGSTOP');
    try {
      await server.client.close();
      assert.deepEqual(await server.transport.exit!, { code: 0, signal: null }, server.transport.stderr);
      assert.ok(await waitFor(() => !isAlive(root), 5000), 'the stopped browser was killed');
      assert.deepEqual(left(), []);
    } finally {
      if (isAlive(root)) process.kill(root, 'SIGKILL');
    }
  });

  test('a server that never launched a browser also exits 0 on EOF', async () => {
    const server = await connect(testEnv(output.path));
    await server.client.listTools();
    await server.client.close();
    assert.deepEqual(await server.transport.exit!, { code: 0, signal: null });
  });
});
