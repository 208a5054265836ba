import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { TIMEOUTS } from './helpers/hostile-driver.ts';
import { startHostileSite, type HostileSite } from './helpers/hostile-site.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { normalise } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// @playwright/mcp 0.0.86's browser_tabs takes `isolatedContext`: a named one
// is a browser.newContext() the upstream opens beside the session's context
// (its own cookies and storage). Ours opens it as the session's own: the same
// identity (viewport, screen, user agent and its hints, no webdriver flag),
// the guards, and the hang check for its pages. The upstream CLI runs
// alongside as the yardstick for what the tool does.

const IDENTITY = `() => JSON.stringify({
  webdriver: navigator.webdriver,
  userAgent: navigator.userAgent,
  brands: navigator.userAgentData?.brands?.map((b) => b.brand + ' ' + b.version),
  platform: navigator.userAgentData?.platform,
  screen: [screen.width, screen.height, screen.availWidth, screen.availHeight],
  viewport: [innerWidth, innerHeight],
  languages: navigator.languages,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
})`;

const resultOf = (text: string) => text.match(/### Result\n([^]*?)(?:\n###|$)/)?.[1]?.trim() ?? `no result in: ${text}`;

describe('browser_tabs isolatedContext, side by side with the upstream CLI (0.0.86)', { timeout: 240_000 }, () => {
  const dirs = useTempDir('spm-isolated-');
  const servers: Connected[] = [];
  let site: HostileSite;
  const sides: Record<'upstream' | 'ours', { server: Connected; dir: string; opened: string; tabs: string }> = {} as never;
  const call = async (name: 'upstream' | 'ours', tool: string, args: Record<string, unknown> = {}) => {
    const result = await sides[name].server.client.callTool({ name: tool, arguments: args });
    return { error: !!result.isError, text: normalise(textOf(result).replaceAll(site.otherOrigin, 'SITE-OTHER'), site.url, sides[name].dir) };
  };

  before(async () => {
    site = await startHostileSite();
    for (const name of ['upstream', 'ours'] as const) {
      const dir = path.join(dirs.path, name);
      fs.mkdirSync(dir);
      const server = name === 'upstream' ? await connectUpstream(dir, TIMEOUTS) : await connect(testEnv(dir), TIMEOUTS);
      servers.push(server);
      sides[name] = { server, dir, opened: '', tabs: '' };
      await call(name, 'browser_navigate', { url: `${site.url}/calm` });
      await call(name, 'browser_evaluate', { function: "() => { document.cookie = 'who=first'; return document.cookie; }" });
      const opened = await call(name, 'browser_tabs', { action: 'new', url: `${site.url}/calm?isolated`, isolatedContext: 'research' });
      sides[name].opened = `error=${opened.error}\n${opened.text}`;
      sides[name].tabs = (await call(name, 'browser_tabs', { action: 'list' })).text;
    }
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test('a named context opens a tab of its own, listed as on the upstream', () => {
    for (const name of ['upstream', 'ours'] as const) assert.match(sides[name].opened, /^error=false\n/, `${name}: ${sides[name].opened}`);
    assert.match(sides.upstream.tabs, /1: \(current\) \[Calm page\]\(SITE\/calm\?isolated\) \[isolatedContext: research\]/, 'the reference');
    assert.equal(sides.ours.tabs, sides.upstream.tabs);
  });

  test("its cookies are its own, on both: the first context's cookie is not there", async () => {
    for (const name of ['upstream', 'ours'] as const) assert.equal(resultOf((await call(name, 'browser_evaluate', { function: '() => document.cookie' })).text), '""', name);
  });

  test("ours: the isolated tab reads the session's identity, as its first tab does", async (t) => {
    const isolated = resultOf((await call('ours', 'browser_evaluate', { function: IDENTITY })).text);
    await call('ours', 'browser_tabs', { action: 'select', index: 0 });
    const first = resultOf((await call('ours', 'browser_evaluate', { function: IDENTITY })).text);
    await call('ours', 'browser_tabs', { action: 'select', index: 1 });
    assert.equal(isolated, first);
    assert.match(isolated, /\\"webdriver\\":false/, isolated);
    // What a context the upstream opens on its own reads, for the record.
    t.diagnostic(`upstream's isolated tab: ${resultOf((await call('upstream', 'browser_evaluate', { function: IDENTITY })).text)}`);
  });

  test("ours: Playwright's script stays out of the isolated tab's page world through a click, as in the first context (main-world.test.ts)", async (t) => {
    const seen: Record<string, string> = {};
    for (const name of ['upstream', 'ours'] as const) {
      await call(name, 'browser_navigate', { url: `${site.url}/watched-world` });
      const snapshot = (await call(name, 'browser_snapshot')).text;
      const ref = snapshot.match(/button "Press" \[ref=(\w+)\]/)?.[1];
      assert.ok(ref, snapshot);
      await call(name, 'browser_click', { target: ref, element: 'Press' });
      seen[name] = (await call(name, 'browser_snapshot')).text.match(/seen: ([^\n"]*)/)?.[1] ?? 'unread';
    }
    t.diagnostic(`the upstream's isolated page saw: ${seen.upstream}`);
    assert.equal(seen.ours, 'nothing');
  });

  test('ours: a page in the isolated context whose script never yields is closed, with the note, and the session goes on', async () => {
    const stuck = await call('ours', 'browser_navigate', { url: `${site.url}/busy-loop` });
    const text = /stopped responding/.test(stuck.text) ? stuck.text : (await call('ours', 'browser_wait_for', { time: 1 })).text;
    assert.match(text, /stopped responding \(a script that never yields\); it was closed so this session can go on/, text);
    const tabs = (await call('ours', 'browser_tabs', { action: 'list' })).text;
    assert.doesNotMatch(tabs, /busy-loop/, tabs);
    const calm = await call('ours', 'browser_navigate', { url: `${site.url}/calm?after` });
    assert.match(calm.text, /Calm/, calm.text);
  });

  test("ours: a background tab in an isolated context whose script never yields is stopped and named, while the current tab is in the first context", async () => {
    await call('ours', 'browser_tabs', { action: 'new', url: `${site.otherOrigin}/spin-tab`, isolatedContext: 'spinning' });
    // The first context's tab is current again; the spinning tab's title is read for every result's tab list.
    await call('ours', 'browser_tabs', { action: 'select', index: 0 });
    const waited = await call('ours', 'browser_wait_for', { time: 2 });
    const text = waited.text.includes('stopped responding') ? waited.text : (await call('ours', 'browser_wait_for', { time: 1 })).text;
    assert.match(text, /Note: the tab SITE-OTHER\/spin-tab stopped responding/, text);
    assert.equal(waited.error, false, waited.text);
    const tabs = (await call('ours', 'browser_tabs', { action: 'list' })).text;
    assert.match(tabs, /\[Spinning tab\]\(SITE-OTHER\/spin-tab\) \[isolatedContext: spinning\]/, tabs);
  });

  test('"default" is the session\'s own context, on both', async () => {
    for (const name of ['upstream', 'ours'] as const) {
      const result = await call(name, 'browser_tabs', { action: 'new', url: `${site.url}/calm?default`, isolatedContext: 'default' });
      assert.equal(result.error, false, result.text);
      assert.equal(resultOf((await call(name, 'browser_evaluate', { function: '() => document.cookie' })).text), '"who=first"', name);
    }
  });
});
