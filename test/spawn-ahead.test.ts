import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { leftInTmp, useTempDir } from './helpers/fixtures.ts';
import { commandLine, descendants, isAlive, makesTemplate, waitFor } from './helpers/processes.ts';
import { startHttpProxy } from './helpers/proxies.ts';
import { connect, localInfo, runToEnd, serverCommand, testEnv, textOf, type Connected } from './helpers/server.ts';
import { servePage } from './helpers/site.ts';

// Over stdio a start with the same settings as the last one starts Chromium
// before playwright-core loads, from the command line Playwright used then;
// Playwright then gets that very process. What a user sees: the same browser
// (switches, environment, their session's seed), nothing stray, and a launch
// that changed since is launched as asked.

type Report = { state: string; why?: string; firstPage?: { state: string; why?: string }; profile?: string };

async function startedAhead(server: Connected): Promise<{ report: Report; seed: number; running: boolean }> {
  const info = await localInfo(server.client);
  return { report: info.session.launch.spawnAhead, seed: info.session.launch.seed, running: info.session.browserRunning };
}

/** Where a user's profile templates and spares live (profile-template.ts). */
const profilesRootIn = (tmp: string) => path.join(tmp, `stealth-playwright-mcp-profiles-${process.getuid!()}`);

/** The server's browser main processes (not Chromium's helpers, nor one making a profile template). */
function browserRoots(server: Connected): number[] {
  return descendants(server.transport.pid).filter((pid) => commandLine(pid).includes('--remote-debugging-pipe') && !commandLine(pid).includes('--type=') && !makesTemplate(pid));
}

/** Browsers under the server that make a profile template (main processes). */
function templateMakers(server: Connected): number[] {
  return descendants(server.transport.pid).filter((pid) => makesTemplate(pid) && !commandLine(pid).includes('--type='));
}

async function oneBrowser(server: Connected): Promise<number> {
  assert.ok(await waitFor(() => browserRoots(server).length === 1, 15_000), `one browser: ${browserRoots(server).map(commandLine).join('\n')}`);
  return browserRoots(server)[0]!;
}

/** Where the first page's target, opened ahead, went once Playwright asked for its first page. */
async function firstPage(server: Connected): Promise<{ state: string; why?: string } | undefined> {
  const deadline = Date.now() + 15_000;
  let report = (await startedAhead(server)).report.firstPage;
  while (report?.state === 'opening' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    report = (await startedAhead(server)).report.firstPage;
  }
  return report;
}

/** Every page target in the browser, the ones Playwright never saw included (Target.getTargets over a page's CDP session). */
async function pageTargets(server: Connected): Promise<number> {
  const code = `async (page) => { const cdp = await page.context().newCDPSession(page); const { targetInfos } = await cdp.send('Target.getTargets'); await cdp.detach(); return targetInfos.filter((t) => t.type === 'page').length; }`;
  const result = await server.client.callTool({ name: 'browser_run_code_unsafe', arguments: { code } });
  const count = Number(/### Result\s+(\d+)/.exec(textOf(result))?.[1]);
  assert.ok(Number.isInteger(count), textOf(result));
  return count;
}

async function waitRunning(server: Connected): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await startedAhead(server)).running && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

async function stop(server: Connected): Promise<void> {
  await server.client.close();
  await server.transport.exit;
}

/** The command line without what differs per start by design. */
const stable = (line: string) =>
  line
    .split(' ')
    .filter((a) => !/^--(user-data-dir|fingerprint|stealth-playwright-mcp-instance)=/.test(a))
    .join(' ');

const profilesIn = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith('playwright_chromiumdev_profile-'));

/** The throwaway profile a browser runs on. */
const profileOf = (pid: number) => commandLine(pid).match(/--user-data-dir=(\S+)/)?.[1] ?? '';

/** What is left in TMPDIR, each with whose it is (when `known` says), its age and what it holds: which start left it. */
function leftReport(dir: string, known: Record<string, string> = {}): string {
  return leftInTmp(dir)
    .map((name) => {
      const full = path.join(dir, name);
      const stat = fs.statSync(full, { throwIfNoEntry: false });
      const entries = (() => {
        try {
          return fs.readdirSync(full).slice(0, 12).join(', ');
        } catch {
          return '?';
        }
      })();
      return `${name} (${known[full] ?? 'no browser the test saw'}; changed ${stat ? Math.round(Date.now() - stat.mtimeMs) : '?'} ms ago; holds: ${entries || 'nothing'})`;
    })
    .join('; ');
}

/** Nothing of a browser's is left in `dir` (within 5 s: a profile's removal may still be under way); the report names what is. */
async function assertNothingLeft(dir: string, known: Record<string, string> = {}): Promise<void> {
  assert.ok(await waitFor(() => leftInTmp(dir).length === 0, 5000), `left in TMPDIR: ${leftReport(dir, known)}`);
}

describe('stdio: Chromium started ahead from the last start\'s command line', () => {
  const out = useTempDir('spm-ahead-out-');
  const cache = useTempDir('spm-ahead-cache-');
  const tmp = useTempDir('spm-ahead-tmp-');
  const runtime = useTempDir('spm-ahead-run-');
  const env = () => testEnv(out.path, { STEALTH_CACHE_DIR: cache.path, STEALTH_PLAYWRIGHT_MCP_RUNTIME_DIR: runtime.path, TMPDIR: tmp.path });

  test('the second start gets the browser started ahead: the same command line with its own seed, and nothing left behind', async () => {
    const first = await connect(env());
    await waitRunning(first);
    const firstFacts = await startedAhead(first);
    assert.equal(firstFacts.report.state, 'recorded', JSON.stringify(firstFacts.report));
    const firstLine = commandLine(await oneBrowser(first));
    await stop(first);

    const seeds = new Set([firstFacts.seed]);
    // Several starts: the profile's removal once raced the process's exit.
    for (let i = 0; i < 3; i++) {
      const second = await connect(env());
      await waitRunning(second);
      const facts = await startedAhead(second);
      assert.equal(facts.report.state, 'adopted', JSON.stringify(facts.report));
      const root = await oneBrowser(second);
      const line = commandLine(root);
      assert.equal(stable(line), stable(firstLine), 'the same switches as a launch by Playwright');
      assert.ok(line.includes(`--fingerprint=${facts.seed}`), `the browser carries the session's seed ${facts.seed}: ${line}`);
      seeds.add(facts.seed);
      assert.deepEqual(await firstPage(second), { state: 'handed over' }, 'its first page was opened ahead too');
      const nav = await second.client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>ahead</title><h1>started ahead</h1>' } });
      assert.ok(!nav.isError, JSON.stringify(nav));
      assert.match(JSON.stringify(nav), /started ahead/);
      const after = await second.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
      assert.equal(textOf(after).match(/^- \d+:/gm)?.length, 1, `one tab: ${textOf(after)}`);
      assert.equal(await pageTargets(second), 1, 'no page target in the browser besides the tab');
      await stop(second);
      assert.ok(await waitFor(() => !isAlive(root), 5000), 'the browser ends with the server');
      assert.deepEqual(leftInTmp(tmp.path), [], 'its profile and socket dir are gone when the server has exited');
    }
    assert.equal(seeds.size, 4, 'a fresh seed each start');
  });

  test('a launch that changed since the recipe: the early browser is killed, the new launch is used, the next start adopts again', async () => {
    const config = path.join(cache.path, 'upstream.json');
    const write = (value: string) => fs.writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: [`--spm-test-switch=${value}`] } } }));
    write('one');
    const first = await connect(env(), ['--config', config]);
    await waitRunning(first);
    const known: Record<string, string> = { [profileOf(await oneBrowser(first))]: 'the first start\'s browser' };
    await stop(first);
    write('two');
    const changed = await connect(env(), ['--config', config]);
    await waitRunning(changed);
    const facts = await startedAhead(changed);
    assert.equal(facts.report.state, 'discarded', JSON.stringify(facts.report));
    assert.match(facts.report.why ?? '', /differs/);
    const root = await oneBrowser(changed);
    assert.match(commandLine(root), /--spm-test-switch=two/);
    known[profileOf(root)] = 'the launch that replaced the early browser';
    await stop(changed);
    const again = await connect(env(), ['--config', config]);
    await waitRunning(again);
    assert.equal((await startedAhead(again)).report.state, 'adopted');
    const adopted = await oneBrowser(again);
    assert.match(commandLine(adopted), /--spm-test-switch=two/);
    known[profileOf(adopted)] = 'the adopted browser';
    await stop(again);
    await assertNothingLeft(tmp.path, known);
  });

  test('a start that fails after the early browser started leaves no browser and no profile', async () => {
    const config = path.join(cache.path, 'failing.json');
    fs.writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: ['--spm-test-failing=1'] } } }));
    await stop(await connect(env(), ['--config', config]));
    fs.writeFileSync(config, '{ not json');
    const [command, args] = serverCommand();
    const failed = await runToEnd(command, [...args, '--config', config], env(), 30_000);
    assert.notEqual(failed.code, 0, failed.stderr);
    assert.match(failed.stderr, /browser started ahead/, 'the early browser did start');
    const stray = () => descendants(1).filter((pid) => commandLine(pid).includes('--spm-test-failing=1'));
    assert.ok(await waitFor(() => stray().length === 0, 5000), `stray: ${stray().map(commandLine).join('\n')}`);
    await assertNothingLeft(tmp.path);
  });

  test('a damaged recipe file is ignored and written anew; --browser-prelaunch=false starts nothing ahead', async () => {
    const dir = path.join(runtime.path, 'launch-recipes');
    for (const name of fs.readdirSync(dir)) fs.writeFileSync(path.join(dir, name), '{"version":1,"command":42');
    const server = await connect(env());
    await waitRunning(server);
    assert.equal((await startedAhead(server)).report.state, 'recorded');
    await oneBrowser(server);
    await stop(server);
    const parsed = fs.readdirSync(dir).map((name) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { args: string[] };
      } catch {
        return undefined;
      }
    });
    // The starts of the other tests had other settings: their files stay as damaged as they were.
    assert.equal(parsed.filter((r) => r?.args.includes('--user-data-dir={{profile}}')).length, 1, 'the recipe of these settings is valid again');
    assert.ok(fs.readdirSync(dir).every((name) => (fs.statSync(path.join(dir, name)).mode & 0o077) === 0), 'readable by the user only');
    assert.ok(!fs.existsSync(path.join(cache.path, 'launch-recipes')), 'nothing in the build cache (it may be read-only)');
    const off = await connect(env(), ['--browser-prelaunch=false']);
    assert.equal((await startedAhead(off)).report.state, 'off');
    assert.equal(browserRoots(off).length, 0);
    await stop(off);
  });

  test('a proxy with credentials is never written down: such a launch is not recorded, and its browser still starts', async () => {
    const refuser = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => refuser.listen(0, '127.0.0.1', resolve));
    const proxy = `http://user:not-on-disk@127.0.0.1:${(refuser.address() as net.AddressInfo).port}`;
    try {
      for (let i = 0; i < 2; i++) {
        const server = await connect(env(), ['--proxy-server', proxy]);
        await waitRunning(server);
        assert.deepEqual((await startedAhead(server)).report, { state: 'not recordable', why: 'a proxy' });
        await oneBrowser(server);
        await stop(server);
      }
      const dir = path.join(runtime.path, 'launch-recipes');
      for (const name of fs.readdirSync(dir)) assert.ok(!fs.readFileSync(path.join(dir, name), 'utf8').includes('not-on-disk'), `${name} holds the proxy password`);
    } finally {
      refuser.close();
    }
  });

  test('a context of its own (a proxy in the config\'s contextOptions): the page opened ahead is not used, and the session\'s page goes through that proxy', async () => {
    const proxy = await startHttpProxy('ctx', 'ctx-secret');
    const config = path.join(cache.path, 'context-proxy.json');
    fs.writeFileSync(config, JSON.stringify({ browser: { contextOptions: { proxy: { server: `http://127.0.0.1:${proxy.port}`, username: 'ctx', password: 'ctx-secret' } } } }));
    try {
      await stop(await connect(env(), ['--config', config]));
      const server = await connect(env(), ['--config', config]);
      await waitRunning(server);
      assert.equal((await startedAhead(server)).report.state, 'adopted');
      const page = await firstPage(server);
      assert.equal(page?.state, 'not used', JSON.stringify(page));
      assert.match(page?.why ?? '', /createTarget/);
      const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: 'http://spm-context-proxy.invalid/' } });
      assert.ok(proxy.seen.some((target) => target.startsWith('spm-context-proxy.invalid')), `the navigate went through the context's proxy: ${proxy.seen} ${textOf(nav).slice(0, 300)}`);
      const tabs = await server.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
      assert.equal(textOf(tabs).match(/^- \d+:/gm)?.length, 1, `one tab: ${textOf(tabs)}`);
      assert.equal(await pageTargets(server), 1, 'the target opened ahead is gone: the tab is the only page in the browser');
      await stop(server);
    } finally {
      await proxy.close();
    }
  });

  test('a server SIGKILLed with its browser started ahead: the next start removes the profile it left', async () => {
    const killed = await connect(env());
    await waitRunning(killed);
    assert.equal((await startedAhead(killed)).report.state, 'adopted');
    const root = await oneBrowser(killed);
    const before = profilesIn(tmp.path);
    assert.ok(before.length >= 1, 'the browser runs on a throwaway profile');
    killed.transport.child!.kill('SIGKILL');
    await killed.transport.exit;
    // Chromium ends when its pipe closes; nobody removes its profile.
    assert.ok(await waitFor(() => !isAlive(root), 5000), 'the browser ended with its pipe');
    assert.deepEqual(profilesIn(tmp.path).filter((name) => before.includes(name)), before, 'the profile outlived the server');
    const next = await connect(env());
    await waitRunning(next);
    assert.deepEqual(profilesIn(tmp.path).filter((name) => before.includes(name)), [], 'the next start removed it');
    assert.match(next.transport.stderr, /removed \d+ throwaway browser profile\(s\) and artifacts dir\(s\)/);
    await stop(next);
    await assertNothingLeft(tmp.path);
  });
  test('a start after one that ran a while gets a profile Chromium made before: pages work, nothing of the earlier session is in it, and the next start finds one too', async () => {
    const root = profilesRootIn(tmp.path);
    fs.rmSync(root, { recursive: true, force: true });
    // Shows what the browser kept from before, then keeps something itself.
    const site = await servePage(`<!doctype html><script>document.title = 'kept: ' + (document.cookie || 'no cookie') + ', ' + (localStorage.getItem('k') ?? 'no storage'); document.cookie = 'k=1; max-age=3600'; localStorage.setItem('k', 'v');</script><h1>profile</h1>`);
    try {
      const titleAfterNavigate = async (server: Connected) => /Page Title: (.*)/.exec(textOf(await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } })))?.[1];
      const first = await connect(env());
      await waitRunning(first);
      assert.equal((await startedAhead(first)).report.state, 'adopted');
      assert.equal(await titleAfterNavigate(first), 'kept: no cookie, no storage');
      assert.equal(await titleAfterNavigate(first), 'kept: k=1, v', 'the session keeps its own state');
      const template = () => fs.existsSync(root) && fs.readdirSync(root).some((name) => /^template-[0-9a-f]+$/.test(name));
      assert.ok(await waitFor(template, 30_000), `a template was made during the session: ${fs.existsSync(root) ? fs.readdirSync(root) : 'no dir'}`);
      assert.ok(await waitFor(() => templateMakers(first).length === 0, 10_000), 'the browser that made it has ended');
      assert.equal((fs.statSync(root).mode & 0o077), 0, 'the templates\' dir is the user\'s alone');
      await stop(first);
      assert.ok(fs.readdirSync(root).some((name) => name.startsWith('spare-')), 'a spare profile waits for the next start');

      for (let i = 0; i < 2; i++) {
        const next = await connect(env());
        await waitRunning(next);
        const facts = await startedAhead(next);
        assert.equal(facts.report.profile, 'prepared', JSON.stringify(facts.report));
        assert.equal(await titleAfterNavigate(next), 'kept: no cookie, no storage', 'nothing of an earlier session');
        const snapshot = await next.client.callTool({ name: 'browser_snapshot', arguments: {} });
        assert.match(textOf(snapshot), /heading "profile"/);
        assert.equal(templateMakers(next).length, 0, 'no second template for the same launch');
        if (i === 1) {
          // A relaunch after browser_close: the first finds the spare taken by the start (the next
          // is copied as it launches), the second starts on that copy; neither sees the earlier browser's state.
          const relaunched: (string | null)[] = [];
          for (let r = 0; r < 2; r++) {
            await next.client.callTool({ name: 'browser_close', arguments: {} });
            assert.equal(await titleAfterNavigate(next), 'kept: no cookie, no storage', 'a relaunched browser starts clean');
            relaunched.push((await localInfo(next.client)).session.launch.profile);
            assert.ok(await waitFor(() => fs.readdirSync(root).some((name) => name.startsWith('spare-')), 10_000), 'a spare is copied as the browser relaunches');
          }
          assert.deepEqual(relaunched, ['fresh', 'prepared']);
        }
        const root0 = await oneBrowser(next);
        await stop(next);
        assert.ok(await waitFor(() => !isAlive(root0), 5000), 'the browser ends with the server');
        assert.ok(fs.readdirSync(root).some((name) => name.startsWith('spare-')), 'the server left a spare for the start after it');
      }
      await assertNothingLeft(tmp.path);
    } finally {
      await site.close();
    }
  });

  test('a server that ends while a template is being made leaves neither that browser nor a half-made profile, nor its socket dir', async (t) => {
    const root = profilesRootIn(tmp.path);
    fs.rmSync(root, { recursive: true, force: true });
    const server = await connect(env());
    await waitRunning(server);
    assert.ok(await waitFor(() => templateMakers(server).length > 0, 15_000), 'a browser starts making the template');
    const makers = templateMakers(server);
    // Caught as a browser starved at nice 19 can be for seconds on a loaded machine: its
    // singleton-socket dir made, not yet linked from the profile (the link is removed here).
    const partial = () => (fs.existsSync(root) ? fs.readdirSync(root) : []).find((name) => /^template-.*\.tmp$/.test(name));
    const linked = () => partial() !== undefined && fs.lstatSync(path.join(root, partial()!, 'SingletonSocket'), { throwIfNoEntry: false }) !== undefined;
    if (await waitFor(linked, 10_000)) {
      for (const pid of makers) process.kill(pid, 'SIGSTOP');
      fs.rmSync(path.join(root, partial()!, 'SingletonSocket'));
    } else t.diagnostic('the template was made before its socket link could be removed');
    await stop(server);
    assert.ok(await waitFor(() => makers.every((pid) => !isAlive(pid)), 5000), `the template's browser ended with the server: ${makers.map(commandLine).join('\n')}`);
    assert.deepEqual(fs.readdirSync(root).filter((name) => name.endsWith('.tmp')), [], 'no half-made profile');
    await assertNothingLeft(tmp.path);
  });
});
