import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { leftInTmp, useTempDir } from './helpers/fixtures.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { commandLine, descendants, isAlive, makesTemplate, waitFor } from './helpers/processes.ts';
import { localInfo, testEnv, textOf } from './helpers/server.ts';
import { startHttpProxy } from './helpers/proxies.ts';
import { servePage } from './helpers/site.ts';
import type { Site } from './helpers/site.ts';

// Over HTTP Playwright launches every session's browser (and the warm pool's)
// itself. Once a launch has been seen twice, a profile template is made for
// it, and each later launch starts on a copy of it (a spare, renamed into the
// empty profile dir Playwright made). What a user sees: the session says so,
// its pages work, nothing of an earlier session's is in it, and nothing is
// left in TMPDIR when the server ends.

type Launch = { profile: string | null; seed: number };

const profilesRootIn = (tmp: string) => path.join(tmp, `stealth-playwright-mcp-profiles-${process.getuid!()}`);
const entriesOf = (root: string) => (fs.existsSync(root) ? fs.readdirSync(root) : []);

/** One session: a navigate (whose page title shows what the browser kept from before), then what the session reports of its launch. */
async function session(server: HttpServer, site: Site): Promise<{ title: string | undefined; launch: Launch; snapshot: string }> {
  const { client, transport } = await httpClient(server.url);
  try {
    const navigate = await client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
    const title = /Page Title: (.*)/.exec(textOf(navigate))?.[1];
    const snapshot = textOf(await client.callTool({ name: 'browser_snapshot', arguments: {} }));
    const launch = (await localInfo(client)).session.launch as Launch;
    return { title, launch, snapshot };
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

describe('HTTP: sessions\' browsers start on a profile Chromium made before', () => {
  const work = useTempDir('spm-prepared-');
  let server: HttpServer;
  let site: Site;
  const tmp = () => path.join(work.path, 'tmp');

  before(async () => {
    fs.mkdirSync(tmp());
    // Shows what the browser kept from before, then keeps something itself.
    site = await servePage(`<!doctype html><script>document.title = 'kept: ' + (document.cookie || 'no cookie') + ', ' + (localStorage.getItem('k') ?? 'no storage'); document.cookie = 'k=1; max-age=3600'; localStorage.setItem('k', 'v');</script><h1>prepared</h1>`);
    server = await startHttpServer(testEnv(path.join(work.path, 'out'), { TMPDIR: tmp() }), ['--http-prewarm', '0']);
  });
  after(async () => {
    await server?.stop();
    await site?.close();
  });

  test('the first launches are fresh; once a template is made, each later session\'s starts prepared, with nothing of the earlier ones', async () => {
    const root = profilesRootIn(tmp());
    const first = await session(server, site);
    assert.equal(first.launch.profile, 'fresh', JSON.stringify(first.launch));
    assert.equal(first.title, 'kept: no cookie, no storage');
    // The second launch of the same kind makes the template, 2 s later, in a browser of the server's own.
    const second = await session(server, site);
    assert.equal(second.launch.profile, 'fresh');
    assert.ok(await waitFor(() => entriesOf(root).some((name) => /^spare-[0-9a-f]+$/.test(name)), 30_000), `a template and its spare were made: ${entriesOf(root)}`);
    assert.ok(await waitFor(() => !descendants(server.child.pid!).some(makesTemplate), 10_000), 'the template\'s browser has ended');
    assert.equal(fs.statSync(root).mode & 0o077, 0, 'the templates\' dir is the user\'s alone');
    const seeds = new Set([first.launch.seed, second.launch.seed]);
    for (let i = 0; i < 3; i++) {
      const next = await session(server, site);
      assert.equal(next.launch.profile, 'prepared', `session ${i + 3}: ${JSON.stringify(next.launch)}`);
      assert.equal(next.title, 'kept: no cookie, no storage', 'nothing of an earlier session');
      assert.match(next.snapshot, /heading "prepared"/);
      seeds.add(next.launch.seed);
      // The next spare is copied in the background.
      assert.ok(await waitFor(() => entriesOf(root).some((name) => name.startsWith('spare-')), 10_000), `a new spare: ${entriesOf(root)}`);
    }
    assert.equal(seeds.size, 5, 'each browser has a fingerprint seed of its own');
    assert.equal(entriesOf(root).filter((name) => name.startsWith('template-')).length, 1, 'one template for one kind of launch');
  });

  test('a session whose launch differs (a proxy of its own) starts fresh, goes through its proxy, and a launch seen once gets no template', async () => {
    const root = profilesRootIn(tmp());
    const templates = () => entriesOf(root).filter((name) => name.startsWith('template-')).length;
    const before = templates();
    const proxy = await startHttpProxy('own', 'own-secret');
    const { client, transport } = await httpClient(server.url, { headers: { 'X-Stealth-Session-Proxy': proxy.url } });
    try {
      const navigate = await client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
      assert.match(textOf(navigate), /Page Title: kept: no cookie, no storage/);
      assert.ok(proxy.seen.length > 0, 'the page came through the session\'s proxy');
      const launch = (await localInfo(client)).session.launch as Launch & { args: string[] };
      assert.equal(launch.profile, 'fresh', JSON.stringify(launch));
    } finally {
      await transport.terminateSession();
      await client.close();
      await proxy.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(templates(), before, 'a launch seen once gets no template');
  });

  test('the server\'s end leaves no browser, no half-made spare and nothing in TMPDIR', async () => {
    const root = profilesRootIn(tmp());
    const pid = server.child.pid!;
    const chromium = descendants(pid).filter((child) => /chrom/i.test(commandLine(child)));
    await server.stop();
    assert.ok(await waitFor(() => chromium.every((child) => !isAlive(child)), 5000), 'every browser ended with the server');
    assert.deepEqual(entriesOf(root).filter((name) => name.endsWith('.tmp')), [], 'no half-made profile');
    assert.ok(await waitFor(() => leftInTmp(tmp()).length === 0, 5000), `left in TMPDIR: ${leftInTmp(tmp())}`);
  });
});

test('HTTP with --browser-prelaunch=false: no template is made, however often a launch repeats', async () => {
  const work = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'spm-prepared-off-'));
  const site = await servePage('<h1>off</h1>');
  const tmp = path.join(work, 'tmp');
  fs.mkdirSync(tmp);
  const server = await startHttpServer(testEnv(path.join(work, 'out'), { TMPDIR: tmp }), ['--http-prewarm', '0', '--browser-prelaunch', 'false']);
  try {
    for (let i = 0; i < 3; i++) {
      const { launch, snapshot } = await session(server, site);
      assert.match(snapshot, /heading "off"/);
      assert.equal(launch.profile, null, 'no prepared profile: nothing was done ahead');
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual(entriesOf(profilesRootIn(tmp)), [], 'no template, no spare');
  } finally {
    await server.stop();
    await site.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
