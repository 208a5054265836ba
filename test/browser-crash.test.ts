import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commandLine, descendants, isAlive, waitFor } from './helpers/processes.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';

// Issue 9 reliability: the browser of a stdio session dies mid-use (SIGKILL of
// the Chromium main process). The call in flight must end (not hang), the next
// call reports it or relaunches, and the session works again on a new browser.

/** The Chromium main process: the server's direct child running the configured executable. */
function browserMain(serverPid: number): number | undefined {
  const chromium = testEnv('').STEALTH_BINARY_PATH!;
  return descendants(serverPid).find((pid) => commandLine(pid).startsWith(chromium) && parentOf(pid) === serverPid);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // exited meanwhile
  }
}

describe('the browser of a stdio session is killed mid-use', { timeout: 90_000 }, () => {
  let site: Site;
  let outputDir: string;
  let server: Connected;

  before(async () => {
    site = await startSite();
    outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-crash-'));
    server = await connect(testEnv(outputDir));
  });

  after(async () => {
    await server?.client.close();
    await server?.transport.exit;
    await site?.close();
    fs.rmSync(outputDir, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown> = {}) =>
    server.client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 });

  /** Navigates home, retrying once: the first call after a crash may report it instead. */
  async function navigateHome(): Promise<{ reported: string[] }> {
    const reported: string[] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const nav = await call('browser_navigate', { url: `${site.url}/` });
      if (!nav.isError) {
        assert.match(textOf(nav), /Page Title: Bridge test home/);
        return { reported };
      }
      reported.push(textOf(nav));
    }
    assert.fail(`navigate failed twice after the crash:\n${reported.join('\n---\n')}`);
  }

  async function killBrowser(): Promise<number> {
    const main = browserMain(server.transport.pid);
    assert.ok(main, `a Chromium main process under the server: ${descendants(server.transport.pid).map(commandLine).join('\n')}`);
    process.kill(main, 'SIGKILL');
    assert.ok(await waitFor(() => !isAlive(main), 5_000), 'the killed Chromium is gone');
    return main;
  }

  test('killed between calls: the next calls relaunch and the page works', async (t) => {
    await navigateHome();
    const killed = await killBrowser();
    const { reported } = await navigateHome();
    t.diagnostic(reported.length ? `first call after the crash reported: ${reported[0]!.slice(0, 300)}` : 'first call after the crash relaunched directly');
    const snap = await call('browser_snapshot');
    assert.ok(!snap.isError, textOf(snap));
    assert.match(textOf(snap), /button "Click me"/);
    const relaunched = browserMain(server.transport.pid);
    assert.ok(relaunched && relaunched !== killed, 'a new Chromium main process');
    const info = (await call('stealth_bridge_info')).structuredContent as { session: { browserRunning: boolean } };
    assert.equal(info.session.browserRunning, true);
  });

  test('killed while a call is in flight: that call ends with an error, the next ones work', async (t) => {
    await navigateHome();
    // An evaluate that would take 15 s: the browser dies under it.
    const inFlight = call('browser_evaluate', { function: '() => new Promise((r) => setTimeout(() => r("late"), 15000))' }).then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    await new Promise((r) => setTimeout(r, 500));
    await killBrowser();
    const ended = await inFlight;
    t.diagnostic(`in-flight call ended with: ${ended.result ? textOf(ended.result).slice(0, 300) : String(ended.error)}`);
    // Either a tool error result or a JSON-RPC error is a report; a "late" success is not.
    if (ended.result) {
      assert.equal(ended.result.isError, true, `in-flight call result: ${textOf(ended.result)}`);
    } else {
      assert.ok(ended.error instanceof Error);
      assert.doesNotMatch(ended.error.message, /timed out/i, 'the call ended because the browser died, not on the client timeout');
    }
    await navigateHome();
    const evaluated = await call('browser_evaluate', { function: '() => document.title' });
    assert.ok(!evaluated.isError, textOf(evaluated));
    assert.match(textOf(evaluated), /Bridge test home/);
  });

  test('the server never wrote anything but JSON-RPC to stdout and is still alive', () => {
    assert.deepEqual(server.transport.nonJsonLines, []);
    assert.ok(isAlive(server.transport.pid));
  });

  test('closing the session leaves no Chromium behind', async () => {
    const browsers = descendants(server.transport.pid).filter((pid) => /chrom/i.test(commandLine(pid)));
    await server.client.close();
    assert.deepEqual(await server.transport.exit, { code: 0, signal: null }, server.transport.stderr);
    assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 5_000), `left: ${browsers.filter(isAlive).map(commandLine).join('\n')}`);
  });
});
