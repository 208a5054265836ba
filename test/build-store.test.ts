import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromiumProcessesWith, commandLine, descendants, freePort, isAlive, waitFor } from './helpers/processes.ts';
import { ARCHIVE, KEYED_VERSION, startReleaseServer, TAG, VALID_KEY, VERSION, type Mode, type ReleaseServer } from './helpers/release-server.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { httpClient, initializeBody, MCP_HEADERS, startHttpServer } from './helpers/http-server.ts';
import { startSite, type Site } from './helpers/site.ts';

// The managed stealth build end to end: a generated release served from
// 127.0.0.1 speaks the vendor's protocol, signed by a key only these tests trust.
describe('stealth build: download on first use, verify, cache', () => {
  let site: Site;
  let release: ReleaseServer;
  let work: string;
  const servers: Connected[] = [];

  before(async () => {
    site = await startSite();
    release = await startReleaseServer();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-build-'));
  });
  after(async () => {
    for (const s of servers) {
      await s.client.close().catch(() => {});
      s.transport.child?.kill('SIGKILL');
    }
    await release.close();
    await site.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const freshCache = () => fs.mkdtempSync(path.join(work, 'cache-'));
  function env(cache: string, extra: Record<string, string> = {}, rel: ReleaseServer = release) {
    return {
      ...testEnv(path.join(work, 'out'), {
        STEALTH_BINARY_PATH: '',
        STEALTH_CACHE_DIR: cache,
        STEALTH_DOWNLOAD_URL: rel.url,
        STEALTH_TEST_TRUSTED_KEY: rel.publicKey,
      }),
      ...extra,
    };
  }
  async function start(e: Record<string, string>, args: string[] = []) {
    const s = await connect(e, args);
    servers.push(s);
    return s;
  }
  const navigate = (s: Connected) => s.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
  const info = async (s: Connected, tool = 'stealth_binary_info') => (await s.client.callTool({ name: tool, arguments: {} })).structuredContent as Record<string, any>;
  async function stop(s: Connected) {
    await s.client.close();
    assert.deepEqual(await s.transport.exit, { code: 0, signal: null }, s.transport.stderr);
  }
  /** Everything in the cache except the licence; a failed install must leave nothing. */
  function cacheEntries(cache: string): string[] {
    const out: string[] = [];
    for (const sub of ['builds', '.tmp', '.locks']) for (const name of fs.readdirSync(path.join(cache, sub), { withFileTypes: true }).map((d) => d.name)) out.push(`${sub}/${name}`);
    return out;
  }
  function snapshot(dir: string): string {
    const lines: string[] = [];
    const walk = (d: string) => {
      for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, entry.name);
        const st = fs.lstatSync(p);
        lines.push(`${path.relative(dir, p)} ${st.mode} ${st.size} ${st.mtimeMs}`);
        if (entry.isDirectory()) walk(p);
      }
    };
    walk(dir);
    return lines.sort().join('\n');
  }

  let installedCache: string;

  test('first use: the first browser launch downloads, verifies and installs the build; the session runs on it', async () => {
    installedCache = freshCache();
    const s = await start(env(installedCache));
    const before = await info(s);
    assert.equal(before.installed, false);
    assert.equal(before.executablePath, null, 'nothing downloaded before the first launch');
    assert.equal(release.archiveRequests.length, 0);

    const nav = await navigate(s);
    assert.ok(!nav.isError, textOf(nav));
    assert.match(textOf(nav), /Page Title: Bridge test home/);
    assert.equal(release.archiveRequests.length, 1);

    const after = await info(s);
    assert.equal(after.installed, true);
    assert.equal(after.source, 'cache');
    assert.equal(after.build.verification, 'signed');
    assert.equal(after.build.version, VERSION);
    assert.equal(after.build.archiveSha256, release.sha256);
    assert.match(after.version, /^\d+\.\d+\.\d+\.\d+$/, 'version read from the binary');
    const dir = path.join(installedCache, 'builds', `${VERSION}-${TAG}`);
    assert.equal(after.executablePath, path.join(dir, 'chrome'));
    const receipt = JSON.parse(fs.readFileSync(path.join(dir, '.install.json'), 'utf8'));
    assert.equal(receipt.archive.sha256, release.sha256);
    assert.equal(receipt.source, `${release.url}/chromium-v${VERSION}/${ARCHIVE}`);
    assert.ok(fs.lstatSync(path.join(dir, 'chrome-link')).isSymbolicLink(), 'symlinks inside the build survive');
    assert.deepEqual(cacheEntries(installedCache), [`builds/${VERSION}-${TAG}`], 'no .part, staging dir or lock left');

    // The stealth launch profile: a seed per session, on the browser's command line.
    const bridge = await info(s, 'stealth_bridge_info');
    const launch = bridge.session.launch;
    assert.equal(launch.stealthArgs, true);
    assert.ok(launch.seed >= 10000 && launch.seed < 100000);
    assert.equal(launch.platform, 'windows');
    assert.equal(launch.consoleFallback, true);
    const browsers = descendants(s.transport.pid).filter((pid) => commandLine(pid).includes(`--fingerprint=${launch.seed}`));
    assert.ok(browsers.length > 0, 'the browser got --fingerprint=<seed>');
    assert.ok(commandLine(browsers[0]!).includes('--fingerprint-platform=windows'));

    assert.match(s.transport.stderr, /Downloading stealth build .* 0\.\d MB|Downloading stealth build/);
    assert.match(s.transport.stderr, /verified \(signed, key [0-9a-f]{16}/);
    assert.deepEqual(s.transport.nonJsonLines, [], 'progress never reaches stdout');
    await stop(s);
  });

  test('second start is offline: the release server is down and nothing in the cache changes', async () => {
    const dead = { ...release, url: `http://127.0.0.1:${await freePort()}` } as ReleaseServer;
    const before = snapshot(installedCache);
    const requests = release.archiveRequests.length;
    const s = await start(env(installedCache, {}, dead));
    const bridge = await info(s);
    assert.equal(bridge.installed, true, 'found at startup');
    assert.match(bridge.version, /^\d+\./);
    const nav = await navigate(s);
    assert.ok(!nav.isError, textOf(nav));
    assert.equal(release.archiveRequests.length, requests);
    await stop(s);
    assert.equal(snapshot(installedCache), before, 'a read-only cache would do');
  });

  const failures: [string, Mode | 'down', RegExp, string?][] = [
    ['tampered archive', 'tamper', /Checksum mismatch .*tampered/, 'verification'],
    ['bad signature', 'bad-signature', /does not verify against the vendor's pinned key/],
    ['signed manifest for another version', 'wrong-version', /not 146\.0\.7680\.177\.5: refusing a possible downgrade/],
    ['mirror without a signature', 'no-signature', /serves no signed manifest .*--download-sha256/],
    ['truncated download', 'truncate', /truncated|broke off/],
    ['404', 'missing', /HTTP 404.*STEALTH_DOWNLOAD_URL/],
    ['server down', 'down', /Could not fetch .*127\.0\.0\.1:\d+.*ECONNREFUSED.*--binary-path/],
  ];
  for (const [name, mode, message] of failures) {
    test(`${name}: the tool call fails with the reason and the fix; nothing is left in the cache`, async () => {
      const cache = freshCache();
      release.mode = mode === 'down' ? 'ok' : mode;
      const e = env(cache, mode === 'down' ? { STEALTH_DOWNLOAD_URL: `http://127.0.0.1:${await freePort()}` } : {});
      try {
        const s = await start(e);
        const nav = await navigate(s);
        assert.equal(nav.isError, true, textOf(nav));
        assert.match(textOf(nav), message);
        if (mode === 'truncate') assert.doesNotMatch(textOf(nav), /tamper/i, 'a network failure is not a tampering error');
        assert.deepEqual(cacheEntries(cache).filter((e) => !e.startsWith('.locks/') || e.endsWith('.lock')), []);
        assert.deepEqual(cacheEntries(cache), []);
        assert.equal((await info(s)).installed, false);
        assert.deepEqual(chromiumProcessesWith(cache), [], 'no browser was started');
        await stop(s);
      } finally {
        release.mode = 'ok';
      }
    });
  }

  test('a mirror without a signature installs with an explicit --download-sha256', async () => {
    const cache = freshCache();
    release.mode = 'no-signature';
    try {
      const s = await start(env(cache, { STEALTH_DOWNLOAD_SHA256: release.sha256.toUpperCase() }));
      const nav = await navigate(s);
      assert.ok(!nav.isError, textOf(nav));
      assert.equal((await info(s)).build.verification, 'pinned-sha256');
      await stop(s);
    } finally {
      release.mode = 'ok';
    }
  });

  test('two servers starting at once on an empty cache download once', async () => {
    const cache = freshCache();
    const slow = await startReleaseServer({ padBytes: 1024 * 1024 });
    slow.mode = 'slow';
    try {
      const [a, b] = await Promise.all([start(env(cache, {}, slow)), start(env(cache, {}, slow))]);
      const [navA, navB] = await Promise.all([navigate(a), navigate(b)]);
      assert.ok(!navA.isError, textOf(navA));
      assert.ok(!navB.isError, textOf(navB));
      assert.equal(slow.archiveRequests.length, 1, 'one download');
      assert.match(a.transport.stderr + b.transport.stderr, /waiting for another process that is installing/);
      assert.deepEqual(cacheEntries(cache), [`builds/${VERSION}-${TAG}`]);
      await Promise.all([stop(a), stop(b)]);
    } finally {
      await slow.close();
    }
  });

  test('a server killed mid-download leaves no build; the next start cleans up and installs', async () => {
    const cache = freshCache();
    const slow = await startReleaseServer({ padBytes: 2 * 1024 * 1024 });
    slow.mode = 'slow';
    try {
      const first = await start(env(cache, {}, slow));
      void navigate(first).catch(() => {});
      const tmp = path.join(cache, '.tmp');
      const partGrowing = () => fs.existsSync(tmp) && fs.readdirSync(tmp).some((f) => f.endsWith('.part') && fs.statSync(path.join(tmp, f)).size > 64 * 1024);
      assert.ok(await waitFor(partGrowing, 15_000), 'the download started');
      first.transport.child!.kill('SIGKILL');
      await first.transport.exit;
      assert.ok(!fs.existsSync(path.join(cache, 'builds', `${VERSION}-${TAG}`)), 'no half-installed build');

      slow.mode = 'ok';
      const second = await start(env(cache, {}, slow));
      const nav = await navigate(second);
      assert.ok(!nav.isError, textOf(nav));
      assert.match(second.transport.stderr, /removed a stale install lock/);
      assert.deepEqual(cacheEntries(cache), [`builds/${VERSION}-${TAG}`], 'the old .part and lock are gone');
      await stop(second);
    } finally {
      await slow.close();
    }
  });

  test('with a licence key: the keyed build comes from the vendor API with the key, which reaches the browser and nothing else', async () => {
    const cache = freshCache();
    const e = env(cache, { STEALTH_DOWNLOAD_URL: '', STEALTH_TEST_VENDOR_URL: release.url, STEALTH_LICENSE_KEY: VALID_KEY });
    const s = await start(e);
    const nav = await navigate(s);
    assert.ok(!nav.isError, textOf(nav));
    assert.deepEqual(release.authorizations.at(-1), `Bearer ${VALID_KEY}`);
    const binary = await info(s);
    assert.equal(binary.build.tier, 'keyed');
    assert.equal(binary.build.version, KEYED_VERSION);
    assert.deepEqual(binary.licence.source, 'setting');
    assert.match(binary.licence.key, /^cb_\*\*\*\*cdef$/);
    const bridge = await info(s, 'stealth_bridge_info');
    const browser = descendants(s.transport.pid).find((pid) => commandLine(pid).includes(`--fingerprint=${bridge.session.launch.seed}`));
    assert.ok(browser, 'browser found');
    assert.ok(fs.readFileSync(`/proc/${browser}/environ`, 'latin1').split('\0').includes(`CLOAKBROWSER_LICENSE_KEY=${VALID_KEY}`), 'the build gets its key');
    await stop(s);
    const everything = [s.transport.stderr, ...s.transport.stdoutLines].join('\n');
    assert.ok(!everything.includes(VALID_KEY), 'the key is in no log line and no tool result');
    assert.ok(fs.existsSync(path.join(cache, 'builds', `${KEYED_VERSION}-${TAG}-keyed`, '.install.json')));
  });

  test('a keyed build that refuses its licence (exit 76, seat limit; 77, expired) gives the reason and the fix, not "browser closed"', async () => {
    const cache = freshCache();
    for (const [suffix, message] of [['_seatlimit', /exit 76\): every seat of this licence is in use.*status: seat_limit, seats: 1.*Fix:/s], ['_expired', /exit 77\): the licence key is invalid or expired.*Fix:/s]] as const) {
      const key = `${VALID_KEY}${suffix}`;
      const s = await start(env(cache, { STEALTH_DOWNLOAD_URL: '', STEALTH_TEST_VENDOR_URL: release.url, STEALTH_LICENSE_KEY: key }), ['--browser-prelaunch=false']);
      const nav = await navigate(s);
      assert.equal(nav.isError, true);
      assert.match(textOf(nav), message);
      assert.ok(!textOf(nav).includes(key) && !s.transport.stderr.includes(key), 'the key is in no message');
      await stop(s);
    }
    assert.deepEqual(fs.readdirSync(path.join(cache, 'denials')), [], 'status files are read and removed');
  });

  test('a plan with one seat: over HTTP a second session is refused (503, the reason) before its browser starts, and admitted once the seat is free; over stdio the first tool says so', { timeout: 120_000 }, async () => {
    const cache = freshCache();
    const e = env(cache, { STEALTH_DOWNLOAD_URL: '', STEALTH_TEST_VENDOR_URL: release.url, STEALTH_LICENSE_KEY: VALID_KEY });
    release.seats = { active: 0, limit: 1 };
    const server = await startHttpServer(e);
    try {
      const a = await httpClient(server.url);
      const nav = await a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
      assert.ok(!nav.isError, textOf(nav));
      // The vendor has not counted A's browser yet: our own count says the seat is taken.
      const refused = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody() });
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.match((await refused.json()).error.message, /No licence seat is free for another browser: the plan has 1 seat, 1 in use \(1 by this server.*Fix: end another session.*--http-session-max to 1/);
      assert.equal(server.browsers().filter(isAlive).length > 0, true);
      const browsersWithA = server.browsers().length;
      await a.transport.terminateSession();
      await a.client.close();
      assert.ok(await waitFor(() => server.browsers().length === 0, 10_000), 'A took its browser (and its seat) with it');
      const b = await httpClient(server.url);
      const navB = await b.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
      assert.ok(!navB.isError, textOf(navB));
      assert.ok(browsersWithA > 0);
      await b.client.close();
      assert.ok(!server.stderr().includes(VALID_KEY) && !server.stdout().includes(VALID_KEY), 'the key is in no log');
    } finally {
      await server.stop();
    }
    // Over stdio: the one seat is held elsewhere (another machine); no browser is started for nothing.
    release.seats = { active: 1, limit: 1 };
    const s = await start(e, ['--browser-prelaunch=false']);
    const nav = await navigate(s);
    assert.equal(nav.isError, true);
    assert.match(textOf(nav), /No licence seat is free for another browser: the plan has 1 seat, 1 in use \(0 by this server/);
    assert.deepEqual(chromiumProcessesWith(cache), []);
    await stop(s);
    release.seats = { active: 0, limit: 10 };
  });

  test('a key the vendor rejects: validated first, then the keyless build with a warning (as the vendor\'s client does)', async () => {
    const cache = freshCache();
    const key = `${VALID_KEY}_revoked`;
    const before = release.authorizations.length;
    const s = await start(env(cache, { STEALTH_DOWNLOAD_URL: '', STEALTH_TEST_VENDOR_URL: release.url, STEALTH_LICENSE_KEY: key }));
    const nav = await navigate(s);
    assert.ok(!nav.isError, textOf(nav));
    const binary = await info(s);
    assert.equal(binary.build.tier, 'keyless');
    assert.match(binary.build.fallback, /rejected by the vendor/);
    assert.equal(release.authorizations.length, before, 'no keyed download was tried with a rejected key');
    assert.match(s.transport.stderr, /The licence key rejected by the vendor; using the keyless stealth build instead\. Fix:/);
    assert.ok(!s.transport.stderr.includes(key));
    await stop(s);
  });
});
