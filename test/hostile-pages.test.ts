import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CALL_BOUND_MS, Driver, TIMEOUTS } from './helpers/hostile-driver.ts';

import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { startHostileSite, type HostileSite } from './helpers/hostile-site.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { commandLine, descendants, isAlive, waitFor } from './helpers/processes.ts';
import { connect, testEnv, type Connected, closeAll } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Every page of the hostile corpus, driven through MCP tools on our two engines
// and on the upstream CLI in the same run. Each call must come back within the
// upstream's own call deadline (30 s) plus a margin, the result must say what
// happened as the upstream's does, and the session must stay usable.

// compare=false: the upstream's own result depends on timing there (after an
// accepted beforeunload its next navigate sometimes waits past 40 s), so only
// our bounds and the session's recovery are asserted. The upstream's answer
// to an out-of-memory page depends on when the renderer dies (during or after
// the navigate), and to a promise that never settles there is none.
type Scenario = [name: string, run: (d: Driver) => Promise<void>, compare?: boolean];

const SCENARIOS: Scenario[] = [
  ['alert on load', async (d) => { await d.go('/alert-load'); await d.call('browser_handle_dialog', { accept: true }); }],
  ['confirm on load', async (d) => { await d.go('/confirm-load'); await d.call('browser_handle_dialog', { accept: false }); }],
  ['prompt on load', async (d) => { await d.go('/prompt-load'); await d.call('browser_handle_dialog', { accept: true, promptText: 'typed' }); }],
  ['alert on click', async (d) => { await d.go('/alert-click'); await d.click('Alert me'); await d.call('browser_handle_dialog', { accept: true }); }],
  ['confirm on click', async (d) => { await d.go('/confirm-click'); await d.click('Confirm me'); await d.call('browser_handle_dialog', { accept: true }); }],
  ['prompt on click', async (d) => { await d.go('/prompt-click'); await d.click('Prompt me'); await d.call('browser_handle_dialog', { accept: true, promptText: 'x' }); }],
  ['beforeunload on leaving', async (d) => {
    await d.go('/beforeunload');
    await d.call('browser_type', { target: await d.ref('Draft'), element: 'Draft', text: 'unsaved' });
    await d.go('/calm');
    await d.call('browser_handle_dialog', { accept: true });
  }, false],
  ['a dialog from a timer while a tool runs', async (d) => { await d.go('/timer-dialog'); await d.call('browser_wait_for', { time: 1 }); await d.call('browser_handle_dialog', { accept: true }); }],
  ['an HTML dialog the page closes by itself', async (d) => { await d.go('/dialog-closed-by-page'); await d.click('Open dialog'); }],
  ['an endless loop in a worker', async (d) => { await d.go('/worker-loop'); }],
  ['a page that never finishes loading', async (d) => { await d.go('/never-loads'); }],
  ['a redirect loop', async (d) => { await d.go('/redirect-loop'); }],
  // 25, not 50: on two cores 50 took the click past the 5 s action timeout on either side, at random.
  ['25 popups', async (d) => { await d.go('/popups'); await d.click('Open popups'); await d.call('browser_tabs', { action: 'select', index: 0 }); }],
  ['replaced console, Error, JSON, toString, defineProperty, Promise', async (d) => {
    await d.go('/hostile-globals');
    await d.click('Still clickable');
    await d.call('browser_evaluate', { function: '() => document.getElementById("p").textContent' });
  }],
  ['a page that closes itself', async (d) => { await d.go('/self-close'); await d.click('Close window'); }],
  ['a file chooser nobody answers', async (d) => { await d.go('/file-chooser'); await d.click('Upload'); await d.call('browser_file_upload', {}); }],
  ['deeply nested cross-origin frames', async (d) => { await d.go('/nested-frames'); }],
  ['a download storm', async (d) => { await d.go('/download-storm'); await d.click('Download all'); }],
  ['a page that allocates until its renderer is killed (OOM)', async (d) => { await d.go('/oom'); await d.call('browser_wait_for', { time: 3 }); await d.call('browser_snapshot'); }, false],
  ['a renderer crash', async (d) => { await d.go('/calm'); await d.call('browser_navigate', { url: 'chrome://crash' }); await d.call('browser_snapshot'); }],
  ['evaluate: a promise that never settles', async (d) => { await d.go('/calm'); await d.call('browser_evaluate', { function: '() => new Promise(() => {})' }); }, false],
  ['evaluate: a cyclic object', async (d) => { await d.go('/calm'); await d.call('browser_evaluate', { function: '() => { const a = {}; a.self = a; return a; }' }); }],
];

async function runAll(client: Client, site: HostileSite): Promise<Map<string, Driver>> {
  const out = new Map<string, Driver>();
  for (const [name, run] of SCENARIOS) {
    const d = new Driver(client, site);
    await run(d);
    d.scenarioEnd = d.shapes.length;
    // The session is still usable afterwards (compared with nothing: the
    // upstream's first navigate after a redirect loop sometimes fails).
    await d.call('browser_navigate', { url: `${site.url}/calm` });
    const snap = await d.call('browser_snapshot');
    assert.match(snap, /Calm/, `${name}: the session is not usable afterwards: ${snap}`);
    out.set(name, d);
  }
  return out;
}

describe('hostile pages: every tool call returns, says what happened as upstream does, and the session goes on', () => {
  const output = useTempDir('spm-hostile-');
  let site: HostileSite;
  const servers: Connected[] = [];
  const results = new Map<string, Map<string, Driver>>();

  before(async () => {
    site = await startHostileSite();
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  const targets: [string, () => Promise<Connected>][] = [
    ['upstream CLI', () => connectUpstream(`${output.path}/upstream`, TIMEOUTS)],
    ['ours, default engine (--binary-path Debian Chromium)', () => connect(testEnv(`${output.path}/ours`), TIMEOUTS)],
    ['ours, --browser-engine playwright', () => connect(testEnv(`${output.path}/ours-pw`, { STEALTH_BINARY_PATH: '' }), ['--browser-engine', 'playwright', ...TIMEOUTS])],
  ];
  for (const [label, start] of targets) {
    test(`${label}: the whole corpus`, { timeout: 300_000 }, async (t) => {
      const server = await start();
      servers.push(server);
      const drivers = await runAll(server.client, site);
      results.set(label, drivers);
      // The per-page report (longest call, errors, usable after), printed in the test output.
      for (const [name, d] of drivers) {
        const errors = d.shapes.slice(0, d.scenarioEnd).filter((x) => x.includes('error=true')).length;
        t.diagnostic(`${label} | ${name} | longest call ${Math.max(...d.durations.slice(0, d.scenarioEnd))} ms | ${errors} error results | ${d.slow.filter((x) => x.includes('no answer')).length} calls without an answer | usable after: ${/Calm/.test(d.shapes.at(-1) ?? '') ? 'yes' : 'no'}`);
      }
      const slow = [...drivers.values()].flatMap((d) => d.slow);
      // The upstream is the yardstick, not the subject: its stuck calls are reported, ours fail the test.
      if (label.startsWith('upstream')) for (const line of slow) t.diagnostic(`upstream CLI: ${line}`);
      else {
        assert.deepEqual(slow, [], 'every call came back within its bound');
        for (const name of ['a page that allocates until its renderer is killed (OOM)', 'a renderer crash'])
          assert.match(drivers.get(name)!.texts.join('\n'), /the renderer of this tab crashed/, `${name}: the result says the renderer crashed`);
      }
      const browsers = descendants(server.transport.pid).filter((pid) => /chrom/i.test(commandLine(pid)));
      await server.client.close();
      await server.transport.exit;
      assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 5000), `Chromium left behind: ${browsers.filter(isAlive).map(commandLine).join('\n')}`);
      assert.deepEqual(server.transport.nonJsonLines, []);
    });
  }

  test('each scenario reads the same as under the upstream CLI (modal states, errors, page)', () => {
    const upstream = results.get(targets[0]![0]);
    assert.ok(upstream, 'the upstream run completed');
    for (const [label] of targets.slice(1)) {
      const ours = results.get(label);
      assert.ok(ours, `${label} completed`);
      for (const [name, , compare] of SCENARIOS) if (compare !== false) {
        const a: Driver = ours.get(name)!;
        const b: Driver = upstream.get(name)!;
        assert.deepEqual(a.shapes.slice(0, a.scenarioEnd), b.shapes.slice(0, b.scenarioEnd), `${label}: ${name}`);
      }
    }
  });

  // Each of these sessions ends with its test: a page left spinning would take a core from the next.
  const own = async (t: { after(fn: () => Promise<void>): void }, dir: string, args: string[]) => {
    const server = await connect(testEnv(`${output.path}/${dir}`), args);
    servers.push(server);
    t.after(() => closeAll([server]));
    return server;
  };

  test('a page whose script never yields: the call ends with a note, the page is closed, the session goes on (ours; upstream stays stuck)', { timeout: 120_000 }, async (t) => {
    const server = await own(t, 'busy', TIMEOUTS);
    const d = new Driver(server.client, site);
    // The loop starts 200 ms after the script runs: on a busy machine before the navigate's own snapshot.
    const nav = await d.go('/busy-loop');
    const stuck = /stopped responding/.test(nav) ? nav : await d.call('browser_wait_for', { time: 1 });
    assert.match(stuck, /stopped responding.*it was closed so this session can go on/s);
    assert.deepEqual(d.slow, []);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // With Playwright's defaults (IPC flooding protection off) this page swamps
  // the browser process: every call times out, and even its tab cannot be
  // closed. Ours keeps the protection of an unautomated Chromium
  // (history-throttle.test.ts): the page is throttled, loads, and the session goes on.
  test('a page flooding its history: it loads, throttled, and the session goes on (ours)', { timeout: 150_000 }, async (t) => {
    const server = await own(t, 'history-flood', TIMEOUTS);
    const d = new Driver(server.client, site);
    const nav = await d.go('/history-flood');
    t.diagnostic(`navigate took ${d.durations[0]} ms; ${nav.match(/Note: .*/)?.[0] ?? 'no note'}`);
    assert.match(nav, /Page URL: \S+\/history-flood/);
    assert.doesNotMatch(nav, /### Error/);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
    assert.match(await d.call('browser_tabs', { action: 'list' }), /^- 0: \(current\) \[Calm page\]/m);
    assert.deepEqual(d.slow, []);
  });

  // The upstream's snapshot waits for a root element that never comes back, or
  // for a document that stays: on both sides every call that includes one
  // times out. Ours says why.
  test('a page that removes its root element, a page that refreshes itself forever: the timed-out call says why, the session goes on (ours)', { timeout: 150_000 }, async (t) => {
    const server = await own(t, 'rootless', TIMEOUTS);
    const d = new Driver(server.client, site);
    const nav = await d.go('/rootless');
    assert.match(nav, /Timeout \d+ms exceeded/);
    assert.match(nav, /Note: the page \S+\/rootless has no root element \(a script removed it\)/);
    const again = await d.go('/refresh-loop');
    assert.match(again, /Timeout \d+ms exceeded/);
    assert.match(again, /Note: the page \S+\/refresh-loop keeps replacing its own document \(a refresh or redirect loop/);
    assert.deepEqual(d.slow, []);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // The upstream settles after an action with a setTimeout inside the page; a
  // page that replaced setTimeout held its click with no answer at all (the
  // client gave up after 60 s). Ours waits in the server.
  test('a page whose setTimeout never calls back: a click answers at once with the page changed (ours)', { timeout: 60_000 }, async (t) => {
    const server = await own(t, 'no-timers', TIMEOUTS);
    const d = new Driver(server.client, site);
    await d.go('/no-timers');
    await d.click('Press');
    t.diagnostic(`the click took ${d.durations.at(-1)} ms`);
    assert.doesNotMatch(d.texts.at(-1)!, /### Error/);
    assert.match(await d.call('browser_snapshot'), /paragraph[^\n]*: pressed/);
    assert.deepEqual(d.slow, []);
  });

  // A client that gives up first (its own timeout, a user pressing stop)
  // cancels the call and gets no answer; the page it leaves behind must not
  // take every later call of the session down with it.
  test('a call the client cancels on a script that never yields: the next call says the page was closed and goes on (ours)', { timeout: 90_000 }, async (t) => {
    const server = await own(t, 'busy-cancel', TIMEOUTS);
    // Two probes of 3 s and a close of at most 2 s, then the navigate itself.
    const d = new Driver(server.client, site, 20_000);
    await d.go('/calm');
    await assert.rejects(
      server.client.callTool({ name: 'browser_evaluate', arguments: { function: '() => { for (;;) {} }' } }, undefined, { timeout: 2000 }),
      /timed out/i,
    );
    const next = await d.go('/calm');
    t.diagnostic(`the call after the cancel took ${d.durations.at(-1)} ms`);
    assert.match(next, /stopped responding.*it was closed so this session can go on/s);
    assert.match(next, /Page URL: \S+\/calm/);
    assert.deepEqual(d.slow, []);
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  test('huge results are bounded with a note: a 200,000-node DOM snapshot and a 100 MB evaluate result (ours)', { timeout: 180_000 }, async (t) => {
    const server = await own(t, 'huge', ['--max-result-chars', '300000']);
    const d = new Driver(server.client, site);
    await d.go('/big-dom');
    const snap = await d.call('browser_snapshot');
    assert.ok(snap.length < 301_000, `${snap.length} characters`);
    assert.match(snap, /Cut: \d+ more characters .*--max-result-chars 300000/s);
    const big = await d.call('browser_evaluate', { function: '() => "x".repeat(100 * 1024 * 1024)' });
    assert.ok(big.length < 301_000, `${big.length} characters`);
    assert.match(big, /--max-result-chars/);
    assert.deepEqual(d.slow, []);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // Loading 50 MB of text takes Chromium 20-30 s on this machine, and in some
  // CI runs its renderer stopped answering before the document was parsed
  // (past even a 120 s navigation timeout). Either way the user gets a bounded
  // answer and a session that goes on: the page's cut snapshot, or the timeout
  // with the note that the page was closed.
  test('a 50 MB page: a bounded answer (the snapshot cut with a note, or the page closed with a note), the session goes on (ours)', { timeout: 240_000 }, async (t) => {
    const server = await own(t, 'big-text', ['--max-result-chars', '300000', '--timeout-navigation', '60000']);
    // 60 s navigation timeout + 3 s bridge margin + 2 s hang probe, and slack
    // for a loaded machine.
    const d = new Driver(server.client, site, 70_000);
    const nav = await d.go('/big-text');
    if (/Page URL: \S+\/big-text/.test(nav)) {
      // The upstream puts a snapshot that big in a file and links it.
      const text = await d.call('browser_snapshot');
      assert.ok(text.length < 301_000, `${text.length} characters`);
      assert.match(text, /lorem ipsum dolor sit amet[\s\S]*Cut: \d+ more characters/);
      t.diagnostic('the 50 MB page loaded; its snapshot was cut');
    } else {
      // Playwright's navigation timeout (60000 ms) or, when the hung renderer
      // holds Playwright past it, the bridge's own deadline (63000 ms). A
      // renderer still parsing answers the hang probe and keeps its page.
      assert.match(nav, /Timeout 6[03]000ms exceeded/);
      const closed = /stopped responding.*it was closed so this session can go on/.test(nav);
      t.diagnostic(`the 50 MB page did not load in 60 s; the answer says so${closed ? ' and the page was closed' : ' (the renderer still answered, so the page stayed)'}`);
    }
    assert.deepEqual(d.slow, []);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // Both against the upstream in the same run; the upstream is reported, ours asserted.
  test('a flood of 500 popups: ours bounded (tabs capped), upstream alongside', { timeout: 420_000 }, async (t) => {
    const flood = async (d: Driver) => {
      await d.go('/popup-flood');
      await d.click('Open 500 popups');
      await d.call('browser_wait_for', { time: 1 });
      await d.call('browser_tabs', { action: 'select', index: 0 });
      await d.go('/calm');
      return { tabs: d.texts.findLast((x) => /### Open tabs/.test(x))?.match(/^- \d+:/gm)?.length ?? 1 };
    };
    const runs: [string, Connected][] = [
      ['upstream CLI', await connectUpstream(`${output.path}/flood-upstream`, TIMEOUTS)],
      ['ours', await connect(testEnv(`${output.path}/flood-ours`), TIMEOUTS)],
    ];
    for (const [label, server] of runs) {
      servers.push(server);
      const d = new Driver(server.client, site);
      const started = Date.now();
      const { tabs } = await flood(d);
      const after = await d.call('browser_snapshot');
      const usable = /Calm/.test(after);
      if (!usable) t.diagnostic(`${label}: the snapshot after the flood read: ${after.slice(0, 600)}`);
      t.diagnostic(`${label} | 500 popups | ${Date.now() - started} ms in all | longest call ${Math.max(...d.durations)} ms | ${tabs} tabs after the flood | usable after: ${usable ? 'yes' : 'no'} | ${d.slow.length} calls past ${CALL_BOUND_MS} ms or unanswered`);
      if (label === 'ours') {
        assert.deepEqual(d.slow, []);
        assert.ok(usable, 'the session goes on');
        assert.ok(tabs <= 100, `${tabs} tabs`);
        assert.match(d.texts.join('\n'), /a page tried to open more tabs than --max-pages \(100\); \d+ were closed as they opened|stopped responding/);
      }
      await server.client.close();
    }
  });

  test('an endless download is stopped at --max-download-bytes and the result says so (ours)', { timeout: 60_000 }, async () => {
    const server = await connect(testEnv(`${output.path}/download`), ['--max-download-bytes', String(4 * 1024 * 1024)]);
    servers.push(server);
    const d = new Driver(server.client, site);
    await d.go('/huge-download');
    // Over loopback it grows fast: the note may come with the click itself.
    let note = await d.click('Get the endless file');
    for (let i = 0; i < 10 && !note.includes('--max-download-bytes'); i++) note = await d.call('browser_wait_for', { time: 1 });
    assert.match(note, /download of http:\/\/127\.0\.0\.1:\d+\/endless\.bin was stopped at \d+ bytes: it grew past --max-download-bytes \(4194304\)/);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  test('over Streamable HTTP: the corpus in sessions of their own returns in time, and the server memory returns to its baseline after GC', { timeout: 240_000 }, async (t) => {
    const server: HttpServer = await startHttpServer(testEnv(`${output.path}/http`, { NODE_OPTIONS: '--expose-gc' }), TIMEOUTS);
    const heap = async () => ((await (await fetch(`${server.origin}/healthz`)).json()) as { memory: { heapUsedBytes: number; afterGc: boolean } }).memory;
    const session = async (run: (d: Driver) => Promise<void>) => {
      const { client, transport } = await httpClient(server.url);
      const d = new Driver(client, site);
      await run(d);
      await d.go('/calm');
      assert.match(await d.call('browser_snapshot'), /Calm/);
      await transport.terminateSession();
      await client.close();
      return d;
    };
    try {
      // One untimed session first: modules and caches the first session loads are not a leak.
      await session(async () => {});
      const before = await heap();
      const slow: string[] = [];
      for (const [, run] of SCENARIOS.filter(([n]) => !/beforeunload/.test(n))) slow.push(...(await session(run)).slow);
      slow.push(...(await session(async (d) => { await d.go('/big-dom'); await d.call('browser_snapshot'); })).slow);
      assert.deepEqual(slow, []);
      assert.ok(await waitFor(() => server.browsers().length === 0, 10_000), 'every session took its browser with it');
      const after = await heap();
      const growthMb = (after.heapUsedBytes - before.heapUsedBytes) / 2 ** 20;
      t.diagnostic(`server heap ${(before.heapUsedBytes / 2 ** 20).toFixed(1)} → ${(after.heapUsedBytes / 2 ** 20).toFixed(1)} MB after ${SCENARIOS.length} hostile sessions${after.afterGc ? ' (after GC)' : ''}`);
      assert.ok(growthMb < (after.afterGc ? 24 : 96), `heap grew by ${growthMb.toFixed(1)} MB`);
    } finally {
      await server.stop();
    }
  });
});
