import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { CALL_BOUND_MS, Driver, ownSession, TIMEOUTS, useHostileSuite } from './helpers/hostile-driver.ts';
import { playEachAtOnce, SCENARIOS } from './helpers/hostile-scenarios.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { waitFor } from './helpers/processes.ts';
import { connect, testEnv, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Hostile pages that test limits rather than manners: huge results, a huge
// page, a popup flood (the upstream CLI alongside), an endless download, and
// the corpus over Streamable HTTP with the server's memory watched.

describe('hostile pages at the limits: every call returns bounded, and the session goes on', () => {
  const suite = useHostileSuite('spm-hostile-limits-');
  const { output, servers } = suite;

  const own = (t: { after(fn: () => Promise<void>): void }, dir: string, args: string[]) => ownSession(t, servers, `${output.path}/${dir}`, args);

  test('huge results are bounded with a note: a 200,000-node DOM snapshot and a 100 MB evaluate result (ours)', { timeout: 180_000 }, async (t) => {
    const server = await own(t, 'huge', ['--max-result-chars', '300000']);
    const d = new Driver(server.client, suite.site);
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

  // Loading 50 MB of text takes Chromium 20-40 s on this machine, and in some
  // CI runs its renderer stopped answering before the document was parsed
  // (past even a 120 s navigation timeout), or just after. Either way the user
  // gets a bounded answer and a session that goes on: the page's cut snapshot,
  // the timeout, or the note that the page was closed.
  test('a 50 MB page: a bounded answer (the snapshot cut with a note, or the page closed with a note), the session goes on (ours)', { timeout: 240_000 }, async (t) => {
    const server = await own(t, 'big-text', ['--max-result-chars', '300000', '--timeout-navigation', '60000']);
    // 60 s navigation timeout + 3 s bridge margin + 2 s hang probe, and slack
    // for a loaded machine.
    const d = new Driver(server.client, suite.site, 70_000);
    const nav = await d.go('/big-text');
    const closedNote = /stopped responding.*it was closed so this session can go on/;
    // The check during the call can close the page as the navigation ends: the
    // result then names the loaded page and says it was closed (seen once in CI,
    // the renderer busy on the huge document just after its load event).
    const loaded = !closedNote.test(nav) && /Page URL: \S+\/big-text/.test(nav);
    // The upstream puts a snapshot that big in a file and links it.
    const snap = loaded ? await d.call('browser_snapshot') : undefined;
    const said = `the navigation said:\n${nav.slice(0, 1500)}${snap === undefined ? '' : `\nthe snapshot said:\n${snap.slice(0, 1500)}`}`;
    const closedBy = [nav, snap].find((text) => text !== undefined && closedNote.test(text));
    if (loaded && !closedBy) {
      assert.ok(snap!.length < 301_000, `${snap!.length} characters`);
      assert.match(snap!, /lorem ipsum dolor sit amet[\s\S]*Cut: \d+ more characters/, said);
      t.diagnostic('the 50 MB page loaded; its snapshot was cut');
    } else if (!closedBy) {
      // Playwright's navigation timeout (60000 ms) or, when the hung renderer
      // holds Playwright past it, the bridge's own deadline (63000 ms). A
      // renderer still parsing answers the hang probe and keeps its page.
      assert.match(nav, /Timeout 6[03]000ms exceeded/, said);
      t.diagnostic('the 50 MB page did not load; the answer says so (the renderer still answered, so the page stayed)');
    } else {
      // One that did not answer the check (33 s into the call, or after its
      // timeout) is closed with the note. Silent before its load event: said as
      // a document still loading. After it (the renderer busy on the huge
      // document), the check cannot tell that from a script that never yields,
      // and names that.
      assert.match(closedBy, /stopped responding (while its document was still loading \(a document too large to parse in time|\(a script that never yields\))/, said);
      t.diagnostic(`the 50 MB page was closed with a note, in the ${closedBy === nav ? 'navigation' : 'snapshot'}'s answer${loaded ? ' (it had loaded)' : ''}`);
    }
    assert.deepEqual(d.slow, []);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // Chromium's popup blocker, on in ours by default, gives a click one window
  // (test/popup-blocker.test.ts): no flood at all. The flood cases run with
  // the upstream's switch to turn it off, given as a user gives it (the
  // config file's launch args), so the guards behind it are the ones tested.
  const popupsUnblocked = (dir: string): string[] => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(`${dir}/popups.json`, JSON.stringify({ browser: { launchOptions: { args: ['--disable-popup-blocking'] } } }));
    return ['--config', `${dir}/popups.json`];
  };

  // Both against the upstream in the same run; the upstream is reported, ours asserted.
  test('a flood of 500 popups, the popup blocker turned off: ours bounded (tabs capped), upstream alongside', { timeout: 420_000 }, async (t) => {
    const flood = async (d: Driver) => {
      await d.go('/popup-flood');
      await d.click('Open 500 popups');
      await d.call('browser_wait_for', { time: 1 });
      await d.call('browser_tabs', { action: 'select', index: 0 });
      // The opener's renderer can still be running the loop of opens: the session closes the pages that
      // stopped responding and says "Navigate to continue", which an agent does.
      const landed = await d.go('/calm');
      const listed = () => d.texts.findLast((x) => /### Open tabs/.test(x))?.match(/^- \d+:/gm)?.length ?? 1;
      const tabs = listed();
      // The loop may still be opening tabs while the ones that stopped responding close: they count until gone.
      if (/Navigate to continue/.test(landed)) await d.go('/calm');
      return { tabs: Math.max(tabs, listed()) };
    };
    const runs: [string, Connected][] = [
      ['upstream CLI', await connectUpstream(`${output.path}/flood-upstream`, TIMEOUTS)],
      ['ours', await connect(testEnv(`${output.path}/flood-ours`), [...TIMEOUTS, ...popupsUnblocked(`${output.path}/flood-ours`)])],
    ];
    for (const [label, server] of runs) {
      servers.push(server);
      const d = new Driver(server.client, suite.site);
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
        // A loop of 500 opens either runs out by itself while its tabs are closed, is stopped between two
        // opens, or (V8 does not stop a loop of bare opens) goes on until its renderer is ended; which one
        // depends on the machine's load. Each is bounded; the result says which.
        const all = d.texts.join('\n');
        const how = /went on opening tabs after its script was stopped .*so its renderer was ended/.test(all) ? 'its renderer was ended' : /the script opening them was stopped/.test(all) ? 'its script was stopped' : 'the loop ran out';
        t.diagnostic(`ours: the flood ended because ${how}`);
      }
      await server.client.close();
    }
  });

  // Ours only: the upstream has no tab limit, so an endless flood would fill its
  // browser until the machine gives out. Before the opener's script was stopped,
  // the click timed out and the next two calls ran into their 60 s deadlines.
  // The click ends only when the loop is stopped, after the 20th popup: each
  // open costs the browser ~0.1 s here (its new tab is set up for automation),
  // and a pause of ~1.3 s comes near the 20th, so the upstream's 5 s
  // action timeout was met by 0.1 s unloaded and missed in a loaded CI run
  // (the stop and the note came, the click read as timed out). A user whose
  // pages do this gives actions more time; so does the test.
  test('an endless popup flood from a script that never yields, the popup blocker turned off: stopped at its source, tabs capped, the next calls answer (ours)', { timeout: 180_000 }, async (t) => {
    const server = await own(t, 'flood-forever', ['--max-pages', '20', '--timeout-action', '15000', ...popupsUnblocked(`${output.path}/flood-forever`)]);
    const d = new Driver(server.client, suite.site);
    await d.go('/popup-flood-forever');
    const clicked = await d.click('Open popups forever');
    assert.doesNotMatch(clicked, /### Error/, clicked.slice(0, 600));
    assert.match(clicked, /a page tried to open more tabs than --max-pages \(20\); \d+ were closed as they opened, and the script opening them was stopped/);
    const listed = await d.call('browser_tabs', { action: 'list' });
    const tabs = listed.match(/^- \d+:/gm)?.length ?? 0;
    assert.ok(tabs >= 1 && tabs <= 20, `${tabs} tabs`);
    // The loop is over: the opener's own tab navigates as any other.
    const landed = await d.go('/calm');
    assert.doesNotMatch(landed, /### Error|Navigate to continue/, landed.slice(0, 600));
    assert.match(await d.call('browser_snapshot'), /Calm/);
    assert.equal((await d.call('browser_tabs', { action: 'list' })).match(/^- \d+:/gm)?.length, tabs, 'no tab opened since');
    assert.deepEqual(d.slow, []);
  });

  test('an endless download is stopped at --max-download-bytes and the result says so (ours)', { timeout: 60_000 }, async () => {
    const server = await connect(testEnv(`${output.path}/download`), ['--max-download-bytes', String(4 * 1024 * 1024)]);
    servers.push(server);
    const d = new Driver(server.client, suite.site);
    await d.go('/huge-download');
    // Over loopback it grows fast: the note may come with the click itself.
    let note = await d.click('Get the endless file');
    for (let i = 0; i < 10 && !note.includes('--max-download-bytes'); i++) note = await d.call('browser_wait_for', { time: 1 });
    assert.match(note, /download of http:\/\/127\.0\.0\.1:\d+\/endless\.bin was stopped at \d+ bytes: it grew past --max-download-bytes \(4194304\)/);
    await d.go('/calm');
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  test('over Streamable HTTP: the corpus in sessions of their own, three at a time, returns in time, and the server memory returns to its baseline after GC', { timeout: 240_000 }, async (t) => {
    const server: HttpServer = await startHttpServer(testEnv(`${output.path}/http`, { NODE_OPTIONS: '--expose-gc' }), TIMEOUTS);
    const heap = async () => ((await (await fetch(`${server.origin}/healthz`)).json()) as { memory: { heapUsedBytes: number; afterGc: boolean } }).memory;
    const session = async (run: (d: Driver) => Promise<void>) => {
      const { client, transport } = await httpClient(server.url);
      const d = new Driver(client, suite.site);
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
      // Three sessions at once, as clients of one server are.
      for (const d of await playEachAtOnce(SCENARIOS.filter(([n]) => !/beforeunload/.test(n)), 3, session)) slow.push(...d.slow);
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
