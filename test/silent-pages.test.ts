import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, useHostileSuite } from './helpers/hostile-driver.ts';
import { connect, testEnv, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Pages that answer no DevTools command without being stuck. While a
// navigation waits for its response, Chromium holds every command for the
// page: a server that never answers looked to our hang check like a script
// that never yields, and the tab (its history with it) was closed under a
// note that blamed the page. The upstream leaves the tab; so does ours now,
// and says what the page waits for. An alert in a same-site popup holds the
// renderer of the page that opened it too: the upstream's click waits on it
// and its session answers nothing more; ours answers the call with the dialog
// and makes its tab current, so browser_handle_dialog answers it
// (src/browser/related-dialogs.ts).

const ARGS = ['--timeout-navigation', '5000'];

describe('silent pages that are not stuck: a navigation its server never answers, a popup\'s alert', () => {
  const suite = useHostileSuite('spm-silent-pages-');
  const { output, servers } = suite;

  async function play(server: Connected) {
    const d = new Driver(server.client, suite.site);
    await d.go('/calm?first');
    const timedOut = await d.go('/hang');
    const next = await d.go('/calm');
    const back = await d.call('browser_navigate_back');
    const tabs = await d.call('browser_tabs', { action: 'list' });
    return { d, timedOut, next, back, tabs };
  }

  test('side by side: the navigate times out, the next one works, going back reaches the page before', { timeout: 120_000 }, async (t) => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${output.path}/upstream`, ARGS), connect(testEnv(`${output.path}/ours`), ARGS)]);
    servers.push(upstream, ours);
    const [a, b] = await Promise.all([play(upstream), play(ours)]);
    for (const [label, r] of [['upstream CLI', a], ['ours', b]] as const) {
      t.diagnostic(`${label}: timed-out navigate ${r.d.durations[1]} ms; back → ${r.back.match(/Page URL: (\S+)/)?.[1]}`);
      assert.match(r.timedOut, /Timeout 5000ms exceeded/, `${label}: the navigate times out`);
      assert.match(r.next, /Page URL: \S+\/calm\n/, `${label}: the next navigate works`);
      assert.match(r.back, /Page URL: \S+\/calm\?first/, `${label}: the tab kept its history`);
      assert.equal(r.tabs.match(/^- \d+:/gm)?.length, 1, `${label}: one tab`);
    }
    assert.doesNotMatch(b.timedOut, /stopped responding|was closed/);
    assert.match(b.timedOut, /Note: the page \S+\/calm\?first is navigating to \S+\/hang, which has not answered yet/);
    assert.deepEqual(b.d.slow, []);
    // The check after the timeout asks nothing of a page whose navigation waits: the browser would hold
    // the question until the server answers (it cost ours 3 s more than the upstream: 8107 vs 5025 ms).
    assert.ok(b.d.durations[1]! <= a.d.durations[1]! + 1000, `ours timed out in ${b.d.durations[1]} ms, the upstream in ${a.d.durations[1]} ms`);
  });

  test('what a page logs just before it leaves for a server that has not answered is listed at once, as under the upstream CLI (an evaluate, an async one, a click)', { timeout: 120_000 }, async (t) => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${output.path}/upstream-leaving`, ARGS), connect(testEnv(`${output.path}/ours-leaving`), ARGS)]);
    servers.push(upstream, ours);
    const leaving = [
      ['by script', '() => { console.log("leaving by script"); setTimeout(() => location.href = "/hang", 10); return 1; }'],
      // Ours syncs again as the answer arrives: a race with the page's timer, which a loaded machine can lose at 10 ms.
      ['after an await', 'async () => { await new Promise((r) => setTimeout(r, 200)); console.log("leaving after an await"); setTimeout(() => location.href = "/hang", 100); return 2; }'],
    ] as const;
    async function play(server: Connected) {
      const d = new Driver(server.client, suite.site);
      const read: { how: string; listed: string; ms: number }[] = [];
      const listed = async (how: string) => {
        const listed = await d.call('browser_console_messages');
        read.push({ how, listed, ms: d.durations.at(-1)! });
      };
      for (const [how, fn] of leaving) {
        await d.go(`/calm?${how}`);
        await d.call('browser_evaluate', { function: fn });
        await listed(how);
      }
      await d.go('/leave-on-click');
      await d.click('Leave');
      await listed('by click');
      return { d, read };
    }
    const [a, b] = await Promise.all([play(upstream), play(ours)]);
    for (const [label, r] of [['upstream CLI', a], ['ours', b]] as const)
      for (const { how, listed, ms } of r.read) {
        t.diagnostic(`${label}, leaving ${how}: browser_console_messages in ${ms} ms`);
        assert.match(listed, new RegExp(`^\\[LOG\\] leaving ${how} @`, 'm'), `${label}: the message logged before leaving ${how} is listed`);
      }
    // The read is not held until the flush's deadline (500 ms) for a page whose sync Chromium holds till the commit.
    for (const [i, { how, ms }] of b.read.entries()) assert.ok(ms <= a.read[i]!.ms + 300, `leaving ${how}: ours listed in ${ms} ms, the upstream in ${a.read[i]!.ms} ms`);
    assert.deepEqual(b.d.slow, []);
  });

  test('a service worker that never answers a navigation: the tab stays, the note names it (ours)', { timeout: 90_000 }, async (t) => {
    const server = await connect(testEnv(`${output.path}/ours-sw`), ARGS);
    servers.push(server);
    const d = new Driver(server.client, suite.site);
    await d.go('/sw');
    await d.call('browser_wait_for', { text: 'Service worker ready' });
    const timedOut = await d.go('/sw-blackhole');
    t.diagnostic(timedOut.match(/Note: .*/)?.[0] ?? 'no note');
    assert.match(timedOut, /Note: the page \S+\/sw is navigating to \S+\/sw-blackhole, which has not answered yet \(its server, or a service worker of the site\)/);
    assert.doesNotMatch(timedOut, /stopped responding/);
    await d.go('/calm');
    assert.match(await d.call('browser_navigate_back'), /Page URL: \S+\/sw\n/);
    assert.deepEqual(d.slow, []);
  });

  test('an alert in a popup holds the page that opened it: the call on that page answers with the dialog, which can be answered, both tabs stay (ours; upstream alongside)', { timeout: 120_000 }, async (t) => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${output.path}/upstream-popup`, ARGS), connect(testEnv(`${output.path}/ours-popup`), ARGS)]);
    servers.push(upstream, ours);
    // The upstream is the yardstick, not the subject: whether its click answers at all is reported.
    const upstreamRun = (async () => {
      const d = new Driver(upstream.client, suite.site, 15_000);
      await d.go('/popup-alert');
      const said = (text: string) => (text ? `${d.durations.at(-1)} ms, ${/### Error/.test(text) ? text.split('\n')[1] : 'no error'}` : 'no answer within 25 s');
      const click = said(await d.click('Open popup'));
      const answer = said(await d.call('browser_handle_dialog', { accept: true }));
      return `click: ${click}; then browser_handle_dialog: ${answer}`;
    })();
    const d = new Driver(ours.client, suite.site);
    const dialogNamed = /^### Modal state\n- \["alert" dialog with message "alert while loading"\]: can be handled by browser_handle_dialog/m;
    for (const [page, opened] of [['/popup-alert', 'during the click'], ['/popup-alert-later', 'after the click']] as const) {
      await d.go(page);
      const clicked = await d.click('Open popup');
      t.diagnostic(`ours, alert ${opened}: the click answered in ${d.durations.at(-1)} ms`);
      assert.doesNotMatch(clicked, /### Error|Note: the page/, `alert ${opened}: the click answers without waiting for its deadline`);
      // Opened after the click, the alert meets the next call on the page it holds, which answers with it at once.
      const held = opened === 'during the click' ? clicked : await d.call('browser_wait_for', { time: 3 });
      assert.match(held, dialogNamed, `alert ${opened}: the result names the popup's dialog as the upstream names one of the tab itself`);
      assert.match(held, /^- 1: \(current\) \[[^\]]*\]\(\S+\/alert-load\)/m, "the dialog's tab is now the current tab");
      assert.doesNotMatch(await d.call('browser_handle_dialog', { accept: true }), /### Error/);
      const tabs = await d.call('browser_tabs', { action: 'list' });
      assert.match(tabs, /^- 0: \[Popup with an alert\]/m);
      assert.match(tabs, /^- 1: \(current\) \[Alert on load\]\(\S+\/alert-load\)/m);
      await d.call('browser_tabs', { action: 'select', index: 0 });
      assert.match(await d.call('browser_snapshot'), /button "Open popup"/);
      await d.call('browser_tabs', { action: 'close', index: 1 });
    }
    // The other way round: the current tab is the popup, and its click opens an alert on the tab that opened it.
    await d.go('/opener-alert');
    await d.click('Open popup');
    await d.call('browser_tabs', { action: 'select', index: 1 });
    const rang = await d.click('Ring');
    assert.doesNotMatch(rang, /### Error|Note: the page/, 'the click in the popup answers without waiting for its deadline');
    assert.match(rang, /^### Modal state\n- \["alert" dialog with message "from the opener"\]/m, "the result names the opener's dialog");
    assert.match(rang, /^- 0: \(current\) \[[^\]]*\]\(\S+\/opener-alert\)/m, "the opener's tab is now the current tab");
    assert.doesNotMatch(await d.call('browser_handle_dialog', { accept: true }), /### Error/);
    assert.match(await d.call('browser_snapshot'), /button "Open popup"/);
    assert.deepEqual(d.slow, []);
    t.diagnostic(`upstream CLI: ${await upstreamRun}`);
  });
});
