import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, ROOT, runToEnd, testEnv, textOf, type Connected } from './helpers/server.ts';
import { servePage, type Site } from './helpers/site.ts';
import { CHROMIUM, connectUpstream } from './helpers/upstream-cli.ts';

// browser_annotate (--caps devtools) opens the Playwright Dashboard, a process
// of its own, on the session's page, for a person to mark it up; the tool
// answers with the marks, a screenshot and a snapshot. The dashboard finds the
// page in Playwright's browser registry, where the upstream CLI publishes
// every browser it launches. Ours published nothing: the dashboard opened
// with no page to mark. Here the dashboard runs headless (Playwright's own
// test switch, which also publishes it) on Debian's Chromium in place of
// Playwright's download, and the test does what the person would: drags a
// box over the page, then submits. The upstream CLI alongside.

const PAGE = `<!doctype html><html><head><title>Annotate me</title></head><body><h1>A page to mark up</h1><p style="height: 400px">text</p></body></html>`;
const DASHBOARD_APP = path.join(ROOT, 'node_modules', 'playwright-core', 'lib', 'entry', 'dashboardApp.js');

/** A Playwright browsers dir whose chromium and headless shell are Debian's Chromium. */
function fakeBrowsersDir(root: string): string {
  const revision = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'playwright-core', 'browsers.json'), 'utf8')) as { browsers: { name: string; revision: string }[] }).browsers.find((b) => b.name === 'chromium')!.revision;
  for (const [dir, exe] of [[`chromium-${revision}`, 'chrome-linux64/chrome'], [`chromium_headless_shell-${revision}`, 'chrome-headless-shell-linux64/chrome-headless-shell']] as const) {
    const file = path.join(root, dir, exe);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `#!/bin/sh\nexec ${CHROMIUM} --no-sandbox "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(root, dir, 'INSTALLATION_COMPLETE'), '');
  }
  return root;
}

interface Descriptor {
  title: string;
  endpoint: string;
}

function descriptors(cacheHome: string): Descriptor[] {
  const dir = path.join(cacheHome, 'ms-playwright', 'b');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).flatMap((f) => {
    try {
      return [JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Descriptor];
    } catch {
      return []; // being written
    }
  });
}

/** The dashboard's page, once it has published itself under `title`. */
async function dashboardPage(cacheHome: string, title: string): Promise<{ browser: Browser; page: Page }> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const found = descriptors(cacheHome).find((d) => d.title === title);
    const browser = found && (await chromium.connect(found.endpoint).catch(() => undefined));
    const page = browser?.contexts().flatMap((c) => c.pages())[0];
    if (browser && page) return { browser, page };
    await browser?.close();
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the dashboard did not start: ${JSON.stringify(descriptors(cacheHome))}`);
}

/** What each screenshot's thumbnail says it shows (session · tab, then the address), once there is one. */
async function frameLabels(page: Page): Promise<string[]> {
  await page.locator('.annotate-sidebar-thumb-button').first().waitFor({ timeout: 30_000 });
  return page.locator('.annotate-sidebar-thumb-button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('title') ?? ''));
}

/** Where the dashboard shows the page's screenshot (its largest image, loaded). */
async function waitForShot(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const handle = await page.waitForFunction(() => {
    const images = [...document.querySelectorAll('img')].filter((i) => i.complete && i.naturalWidth > 0);
    const largest = images.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
    if (!largest || largest.clientWidth < 200) return null;
    const r = largest.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }, undefined, { timeout: 30_000 });
  return (await handle.jsonValue())!;
}

describe('browser_annotate: the dashboard opens on the session\'s page, and the marks come back (the upstream CLI alongside)', () => {
  const dirs = useTempDir('spm-annotate-');
  let site: Site;
  let browsers: string;
  const servers: Connected[] = [];
  const dashboards: Record<string, string>[] = [];
  before(async () => {
    site = await servePage(PAGE);
    browsers = fakeBrowsersDir(path.join(dirs.path, 'browsers'));
  });
  after(async () => {
    await closeAll(servers);
    // The dashboard outlives the session (it is the person's window), as under the upstream: closed here.
    for (const env of dashboards) await runToEnd(process.execPath, [DASHBOARD_APP, '--kill'], env, 10_000);
    await site?.close();
  });

  /** Each side's own registry, sockets and dashboard. */
  function sideEnv(side: string): Record<string, string> {
    const env = {
      XDG_CACHE_HOME: path.join(dirs.path, side, 'cache'),
      PWTEST_SOCKETS_DIR: path.join(dirs.path, side, 'sockets'),
      PLAYWRIGHT_BROWSERS_PATH: browsers,
      PWTEST_DASHBOARD_APP_BIND_TITLE: `dashboard-${side}`,
    };
    dashboards.push({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env });
    return env;
  }

  async function annotate(server: Connected, env: Record<string, string>): Promise<{ result: Awaited<ReturnType<Connected['client']['callTool']>>; shown: string }> {
    await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
    const call = () => server.client.callTool({ name: 'browser_annotate', arguments: {} }, undefined, { timeout: 120_000 });
    let pending = call();
    const { browser, page } = await dashboardPage(env.XDG_CACHE_HOME!, env.PWTEST_DASHBOARD_APP_BIND_TITLE!);
    try {
      // The page to mark, shown by the dashboard (its title and address in the annotation bar).
      await page.getByText('Annotate me').first().waitFor({ timeout: 30_000 });
      const shown = await page.evaluate(() => document.body.innerText);
      // The screenshot takes the tab's title and address the dashboard knows when it is taken; on
      // its first start it can be taken before the dashboard has the tab list (the frame then reads
      // "session · tab", and so does the result: the upstream's, once in a CI run). A person sees
      // that on the thumbnail, drops it (which ends the call) and asks again. (The thumbnail's
      // button lies under the screenshot's overlay: the click is sent to it directly.)
      if (!(await frameLabels(page))[0]?.includes('Annotate me')) {
        await page.getByTitle('Remove screenshot').first().dispatchEvent('click');
        assert.match(textOf(await pending), /No annotations were submitted|Annotation cancelled/, 'dropping the only screenshot ends the call');
        pending = call();
        await page.waitForFunction(() => document.querySelectorAll('.annotate-sidebar-thumb-button').length === 1, undefined, { timeout: 30_000 });
        assert.match((await frameLabels(page))[0] ?? '', /Annotate me/, 'the screenshot taken again names the tab');
      }
      // The box, over the middle of the page's screenshot once it shows; drawn again if the
      // dashboard was not taking marks yet (its first start, on a busy machine), as a person would.
      for (let attempt = 0; attempt < 5; attempt++) {
        const shot = await waitForShot(page);
        const at = (fx: number, fy: number) => [shot.x + shot.width * fx, shot.y + shot.height * fy] as const;
        await page.mouse.move(...at(0.3, 0.3));
        await page.mouse.down();
        await page.mouse.move(...at(0.45, 0.45), { steps: 5 });
        await page.mouse.move(...at(0.6, 0.6), { steps: 5 });
        await page.mouse.up();
        if (await page.locator('.annotations-textarea').waitFor({ timeout: 2000 }).then(() => true, () => false)) break;
      }
      // The box's comment, added as a person adds it.
      await page.locator('.annotations-textarea').fill('make this bigger');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.locator('.annotations-rect:not(.editing)').waitFor();
      await page.getByTitle('Done annotating').click();
      await page.getByRole('button', { name: 'Submit' }).click();
      return { result: await pending, shown };
    } finally {
      await browser.close();
    }
  }

  test('a box drawn over the page comes back with the page\'s title, the box, a screenshot and a snapshot, as from the upstream', { timeout: 300_000 }, async () => {
    const upstreamEnv = sideEnv('upstream');
    const upstream = await connectUpstream(path.join(dirs.path, 'upstream', 'out'), ['--caps', 'devtools'], upstreamEnv);
    servers.push(upstream);
    const theirs = await annotate(upstream, upstreamEnv);

    const oursEnv = sideEnv('ours');
    const ours = await connect(testEnv(path.join(dirs.path, 'ours', 'out'), oursEnv), ['--caps', 'devtools']);
    servers.push(ours);
    const mine = await annotate(ours, oursEnv);

    const shape = (r: typeof mine.result) => ({
      isError: r.isError ?? false,
      // Ours also links the files it wrote as MCP resources (session files), after the upstream's content.
      types: (r.content as { type: string }[]).map((c) => c.type).filter((t) => t !== 'resource_link'),
      text: textOf(r).replace(/\d+/g, 'N').replace(/\S+\/annotations-\S+\.(png|yaml)/g, 'FILE.$1'),
    });
    const report = JSON.stringify({ upstream: textOf(theirs.result), ours: textOf(mine.result) });
    assert.match(textOf(theirs.result), /Annotate me @ http:\/\/127\.0\.0\.1:\d+\/ \(\d+x\d+\)\n\s+\{ x: \d+, y: \d+, width: \d+, height: \d+ \}: make this bigger/, report);
    assert.match(mine.shown, /Annotate me/, 'the dashboard shows our page');
    assert.deepEqual(shape(mine.result), shape(theirs.result), report);
    // The screenshot and snapshot the result names were written.
    for (const file of textOf(mine.result).match(/\(([^)\s]+annotations-[^)\s]+)\)/g) ?? []) {
      const name = path.basename(file.slice(1, -1));
      assert.ok(fs.existsSync(path.join(dirs.path, 'ours', 'out', name)), `${name} written`);
    }
  });

  test('the session\'s browser leaves the registry when the session ends', { timeout: 60_000 }, async () => {
    const ours = servers.at(-1)!;
    assert.ok(descriptors(path.join(dirs.path, 'ours', 'cache')).some((d) => d.title === 'stealth-test-client'), 'published while the session runs');
    await ours.client.close();
    await ours.transport.exit;
    const deadline = Date.now() + 10_000;
    while (descriptors(path.join(dirs.path, 'ours', 'cache')).some((d) => d.title === 'stealth-test-client') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(descriptors(path.join(dirs.path, 'ours', 'cache')).map((d) => d.title).filter((t) => !t.startsWith('dashboard-')), []);
  });
});
