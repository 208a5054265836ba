import assert from 'node:assert/strict';
import { Driver, ownSession, TIMEOUTS, useHostileSuite } from './helpers/hostile-driver.ts';
import { runAllAtOnce, SCENARIOS } from './helpers/hostile-scenarios.ts';
import { describe, test } from 'node:test';
import { browserProcessesOf, commandLine, isAlive, waitFor } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Every page of the hostile corpus, driven through MCP tools on our two engines
// and on the upstream CLI in the same run. Each call must come back within the
// upstream's own call deadline (30 s) plus a margin, the result must say what
// happened as the upstream's does, and the session must stay usable.

describe('hostile pages: every tool call returns, says what happened as upstream does, and the session goes on', () => {
  const suite = useHostileSuite('spm-hostile-');
  const { output, servers } = suite;
  const results = new Map<string, Map<string, Driver>>();

  const targets: [string, () => Promise<Connected>][] = [
    ['upstream CLI', () => connectUpstream(`${output.path}/upstream`, TIMEOUTS)],
    ['ours, default engine (--binary-path Debian Chromium)', () => connect(testEnv(`${output.path}/ours`), TIMEOUTS)],
    ['ours, --browser-engine playwright', () => connect(testEnv(`${output.path}/ours-pw`, { STEALTH_BINARY_PATH: '' }), ['--browser-engine', 'playwright', ...TIMEOUTS])],
  ];
  // The three play the corpus at once, started by whichever test comes first; each test reads its own.
  let played: Promise<Map<string, { server: Connected; outcome: PromiseSettledResult<Map<string, Driver>> }>> | undefined;
  const playAll = () => played ??= (async () => {
    const started = await Promise.all(targets.map(async ([, start]) => {
      const server = await start();
      servers.push(server);
      return server;
    }));
    const outcomes = await runAllAtOnce(started.map((server) => server.client), suite.site);
    return new Map(targets.map(([label], i) => [label, { server: started[i]!, outcome: outcomes[i]! }]));
  })();
  for (const [label] of targets) {
    test(`${label}: the whole corpus`, { timeout: 300_000 }, async (t) => {
      const { server, outcome } = (await playAll()).get(label)!;
      if (outcome.status === 'rejected') throw outcome.reason;
      const drivers = outcome.value;
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
        for (const name of ['a page that allocates until its renderer is killed (OOM)', 'a renderer crash', 'a renderer that crashes while its page loads'])
          assert.match(drivers.get(name)!.texts.join('\n'), /the renderer of this tab crashed/, `${name}: the result says the renderer crashed`);
      }
      const browsers = browserProcessesOf(server.transport.pid);
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
        const calls = (d: Driver) => d.shapes.slice(0, typeof compare === 'number' ? Math.min(compare, d.scenarioEnd) : d.scenarioEnd);
        assert.deepEqual(calls(a), calls(b), `${label}: ${name}`);
      }
      // A crash's error names the call as the upstream's does ("Error: browserBackend.callTool: Target crashed"; which of
      // "Target" or "Page crashed" comes first varies on either side).
      const namedCall = (d: Driver) => d.texts.join('\n').match(/^Error: ([^:\n]+: )?(Target|Page) crashed/m)?.[1];
      for (const name of ['a renderer crash', 'a renderer that crashes while its page loads'])
        assert.equal(namedCall(ours.get(name)!), namedCall(upstream.get(name)!), `${label}: ${name}: the error names the call as the upstream's does`);
    }
  });

  const own = (t: { after(fn: () => Promise<void>): void }, dir: string, args: string[]) => ownSession(t, servers, `${output.path}/${dir}`, args);

  // A page that stops answering: its script never yields, or a click's handler waits on a
  // synchronous request that never answers (the page's thread blocked in the network stack).
  // The upstream's call times out there, and so does every later one (its snapshot, a
  // navigate elsewhere: 30 and 60 s here): the tab stays stuck.
  const NEVER_YIELDS = /stopped responding \(a script that never yields\); it was closed so this session can go on/;
  const STUCK: [name: string, dir: string, stick: (d: Driver) => Promise<string>, note: RegExp][] = [
    ['a page whose script never yields', 'busy', async (d) => {
      // The loop starts 200 ms after the script runs: on a busy machine before the navigate's own snapshot.
      const nav = await d.go('/busy-loop');
      return /stopped responding/.test(nav) ? nav : d.call('browser_wait_for', { time: 1 });
    }, NEVER_YIELDS],
    // Silent before its load event, a renderer may as well be parsing a document of tens of MB: the note does not guess.
    ['a page whose script never yields while its document loads', 'busy-loading', (d) => d.go('/busy-while-loading'),
      /stopped responding while its document was still loading \(a document too large to parse in time, or a script in it that never yields\); it was closed so this session can go on/],
    // The stack of a logged Error is formatted when the console is read, through the page's own hook.
    ['a page whose stack hook never returns, once it has logged an Error', 'stack-hook', async (d) => {
      const nav = await d.go('/endless-stack-hook');
      return /stopped responding/.test(nav) ? nav : d.click('Touch');
    }, NEVER_YIELDS],
    ['a click whose handler waits on a synchronous request that never answers', 'sync-request', async (d) => {
      await d.go('/sync-request');
      return d.click('Load synchronously');
    }, /stopped responding.*it was closed so this session can go on/s],
  ];
  for (const [name, dir, stick, note] of STUCK)
    test(`${name}: the call ends with a note, the page is closed, the session goes on (ours; upstream stays stuck)`, { timeout: 120_000 }, async (t) => {
      const server = await own(t, dir, TIMEOUTS);
      const d = new Driver(server.client, suite.site);
      assert.match(await stick(d), note);
      t.diagnostic(`the stuck call took ${d.durations.at(-1)} ms`);
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
    const d = new Driver(server.client, suite.site);
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
    const d = new Driver(server.client, suite.site);
    const nav = await d.go('/rootless');
    assert.match(nav, /Timeout \d+ms exceeded/);
    assert.match(nav, /Note: the page \S+\/rootless has no root element \(a script removed it\)/);
    const again = await d.go('/refresh-loop');
    assert.match(again, /Timeout \d+ms exceeded/);
    assert.match(again, /Note: the page \S+\/refresh-loop keeps replacing its own document \(a refresh or redirect loop/);
    // As the note says: navigating elsewhere works. The loop's own reload cut Playwright's navigate
    // short 2 times in 3, on the upstream too; ours sends it again (up to 3 times), and 1 run in 16
    // the loop still won (2026-11-25, scratch): the agent's next navigate then gets away.
    let away = await d.go('/calm');
    t.diagnostic(away.match(/Note: .*/)?.[0] ?? 'the navigate away was not cut short');
    if (/### Error/.test(away)) {
      t.diagnostic(`the loop won the first navigate away: ${away.split('\n')[1]}`);
      away = await d.go('/calm');
    }
    assert.doesNotMatch(away, /### Error/);
    assert.match(away, /Page URL: \S+\/calm\n/);
    assert.deepEqual(d.slow, []);
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // The upstream settles after an action with a setTimeout inside the page; a
  // page that replaced setTimeout held its click with no answer at all (the
  // client gave up after 60 s). Ours waits in the server.
  test('a page whose setTimeout never calls back: a click answers at once with the page changed (ours)', { timeout: 60_000 }, async (t) => {
    const server = await own(t, 'no-timers', TIMEOUTS);
    const d = new Driver(server.client, suite.site);
    await d.go('/no-timers');
    await d.click('Press');
    t.diagnostic(`the click took ${d.durations.at(-1)} ms`);
    assert.doesNotMatch(d.texts.at(-1)!, /### Error/);
    assert.match(await d.call('browser_snapshot'), /paragraph[^\n]*: pressed/);
    assert.deepEqual(d.slow, []);
  });

  /** The upstream CLI and a session of ours, default timeouts, both on the calm page: one test's side by side. */
  const bothOnCalm = async (t: { after(fn: () => Promise<void>): void }, dir: string) => {
    const upstream = await connectUpstream(`${output.path}/upstream-${dir}`);
    servers.push(upstream);
    t.after(() => closeAll([upstream]));
    const server = await own(t, dir, []);
    for (const { client } of [upstream, server]) await client.callTool({ name: 'browser_navigate', arguments: { url: `${suite.site.url}/calm` } });
    return { upstream, server };
  };

  // An evaluate is not bounded by the upstream's own 30 s call deadline: on a script that never
  // returns, the upstream never answers, and ours answered at its deadline of 63 s (the
  // navigation timeout, 60 s by default, plus a margin), after an SDK client's default 60 s.
  test('an evaluate whose script never returns, with the default timeouts: answered before the SDK client\'s own 60 s, with the note, and the session goes on (ours; the upstream CLI alongside gives no answer)', { timeout: 120_000 }, async (t) => {
    const { upstream, server } = await bothOnCalm(t, 'endless-evaluate');
    const endless = { name: 'browser_evaluate', arguments: { function: '() => { for (;;) {} }' } };
    const started = Date.now();
    const [theirs, mine] = await Promise.allSettled([
      upstream.client.callTool(endless, undefined, { timeout: 45_000 }),
      // The SDK's default request timeout.
      server.client.callTool(endless).finally(() => t.diagnostic(`ours answered after ${Date.now() - started} ms`)),
    ]);
    assert.equal(theirs.status, 'rejected', 'the upstream CLI gave no answer within 45 s');
    assert.equal(mine.status, 'fulfilled', mine.status === 'rejected' ? String(mine.reason) : '');
    const text = textOf((mine as PromiseFulfilledResult<Record<string, unknown>>).value);
    assert.match(text, NEVER_YIELDS);
    const d = new Driver(server.client, suite.site);
    assert.match(await d.go('/calm'), /Page URL: \S+\/calm/);
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // The check 33 s into such a call cannot tell a script that never yields from a page busy for a
  // few seconds at a time (a long task of heavy script, a huge document being parsed). It gives the
  // page time to answer, and a call that answers meanwhile has its answer: the page is kept, as on
  // the upstream. With a 1 s probe the page was closed here as "a script that never yields".
  test('a page busy for 5 s at a stretch, 33 s into a long evaluate: kept, and the evaluate answers as on the upstream (the upstream CLI alongside)', { timeout: 120_000 }, async (t) => {
    const { upstream, server } = await bothOnCalm(t, 'busy-stretch');
    // The page's own timer blocks its renderer from 31 to 36 s; the evaluate answers at 45 s.
    const stretch = { name: 'browser_evaluate', arguments: { function: "() => new Promise((resolve) => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < 5000); }, 31000); setTimeout(() => resolve('waited 45 s'), 45000); })" } };
    const answer = async ({ client }: Connected) => textOf(await client.callTool(stretch, undefined, { timeout: 58_000 }));
    const [theirs, mine] = await Promise.all([answer(upstream), answer(server)]);
    t.diagnostic(`upstream: ${theirs.match(/### Result\n(.*)/)?.[1]}; ours: ${mine.match(/### Result\n(.*)/)?.[1]}`);
    assert.match(theirs, /"waited 45 s"/);
    assert.match(mine, /"waited 45 s"/, mine);
    assert.doesNotMatch(mine, /stopped responding/);
    assert.match(await server.client.callTool({ name: 'browser_snapshot', arguments: {} }).then(textOf), /Page URL: \S+\/calm/);
  });

  // A click times out a moment after the page last ran Playwright's script (here a 1 s action
  // timeout: the click's handler never returns). The check after the timeout does not wait on such a
  // page (a page of long tasks answers between two of them, seconds later); it asks again in the
  // background, and its note goes to the next call.
  test('a click whose handler never returns, timed out a second after the page last answered: the page is closed and the note reaches the agent by the next call (ours)', { timeout: 90_000 }, async (t) => {
    const server = await own(t, 'spin-click', [...TIMEOUTS, '--timeout-action', '1000']);
    const d = new Driver(server.client, suite.site, 20_000);
    await d.go('/spin-on-click');
    const clicked = await d.click('Spin');
    assert.match(clicked, /### Error[\s\S]*Timeout 1000ms exceeded/);
    const next = await d.go('/calm');
    t.diagnostic(`the click took ${d.durations.at(-2)} ms, the navigate after it ${d.durations.at(-1)} ms; the note came with the ${/stopped responding/.test(clicked) ? 'click' : 'navigate'}`);
    assert.match(clicked + next, /stopped responding \(a script that never yields\); it was closed so this session can go on/);
    assert.match(next, /Page URL: \S+\/calm/);
    assert.deepEqual(d.slow, []);
    assert.match(await d.call('browser_snapshot'), /Calm/);
  });

  // A client that gives up first (its own timeout, a user pressing stop)
  // cancels the call and gets no answer; the page it leaves behind must not
  // take every later call of the session down with it.
  test('a call the client cancels on a script that never yields: the next call says the page was closed and goes on (ours)', { timeout: 90_000 }, async (t) => {
    const server = await own(t, 'busy-cancel', TIMEOUTS);
    // Two probes of 3 s and a close of at most 2 s, then the navigate itself.
    const d = new Driver(server.client, suite.site, 20_000);
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
});
