import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { startEchoSite, startHttpProxy, type EchoSite, type TestProxy } from './helpers/proxies.ts';
import { startReleaseServer, VERSION, type ReleaseServer } from './helpers/release-server.ts';
import { connect, testEnv, localInfo } from './helpers/server.ts';

const BERLIN_IP = '85.214.132.117';

// The real build's `--version` prints the public Chromium version (four
// parts), like the fake one here: what the build can do must come from its
// install receipt, on the first session and on every session after it.
describe('a cached stealth build keeps its stealth switches', () => {
  const work = useTempDir('spm-identity-');
  let release: ReleaseServer;
  let site: EchoSite;
  let proxy: TestProxy;

  before(async () => {
    release = await startReleaseServer();
    site = await startEchoSite(BERLIN_IP);
    proxy = await startHttpProxy('alice', 's3cret');
  });
  after(async () => {
    await Promise.all([release?.close(), site?.close(), proxy?.close()]);
  });

  const env = () =>
    testEnv(path.join(work.path, 'out'), {
      STEALTH_BINARY_PATH: '',
      STEALTH_CACHE_DIR: path.join(work.path, 'cache'),
      STEALTH_DOWNLOAD_URL: release.url,
      STEALTH_TEST_TRUSTED_KEY: release.publicKey,
      PLAYWRIGHT_MCP_PROXY_SERVER: proxy.url,
      STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH: 'true',
      STEALTH_PLAYWRIGHT_MCP_GEOIP_IP_ECHO_URLS: site.ipEchoUrl,
    });

  async function session() {
    const server = await connect(env());
    const info = async (name: string) => ((await server.client.callTool({ name, arguments: {} })) as { structuredContent: any }).structuredContent;
    // The first launch downloads the build; later sessions find it cached at start.
    await server.client.callTool({ name: 'browser_snapshot', arguments: {} });
    const result = { binary: await info('stealth_binary_info'), bridge: await info('stealth_bridge_info') };
    await server.client.close();
    await server.transport.exit;
    return result;
  }

  for (const round of ['first session (downloads the build)', 'a later session (build already cached)']) {
    test(`${round}: inline proxy credentials and the WebRTC exit IP, as the vendor passes them`, async () => {
      const { binary, bridge } = await session();
      assert.equal(binary.installed, true);
      assert.match(binary.version, /^\d+\.\d+\.\d+\.\d+$/, 'the binary prints a public four-part version');
      assert.equal(binary.stealthBuild.version, VERSION);
      assert.equal(binary.stealthBuild.from, 'install receipt');
      assert.equal(bridge.session.proxy.mode, 'inline');
      assert.equal(bridge.session.geoip.applied.webrtcIp, BERLIN_IP);
      assert.ok(bridge.session.launch.args.includes(`--fingerprint-webrtc-ip=${BERLIN_IP}`), bridge.session.launch.args.join(' '));
      assert.ok(!JSON.stringify(bridge).includes('s3cret'), 'the proxy password is masked');
    });
  }

  test('launch switches and geometry as the vendor passes them: headless 1920x947 on a build before 148.0.7778.215.4, --ignore-gpu-blocklist when headed', async () => {
    const headless = await connect({ ...env(), PLAYWRIGHT_MCP_PROXY_SERVER: '', STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH: 'false' });
    await headless.client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>geometry</title>' } });
    const size = await headless.client.callTool({ name: 'browser_evaluate', arguments: { function: '() => innerWidth + "x" + innerHeight' } });
    assert.match(JSON.stringify(size.content), /1920x947/);
    const info = (await localInfo(headless.client));
    assert.deepEqual(info.session.launch.switches, []);
    await headless.client.close();
    await headless.transport.exit;
    // Headed: reported from the launch plan (no display needed to read it).
    const headed = await connect({ ...env(), PLAYWRIGHT_MCP_PROXY_SERVER: '', STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH: 'false', PLAYWRIGHT_MCP_HEADLESS: 'false' }, ['--browser-prelaunch=false']);
    const plan = (await localInfo(headed.client)).session.launch;
    assert.deepEqual(plan.switches.map((s: { switch: string }) => s.switch), ['--ignore-gpu-blocklist']);
    assert.ok(plan.args.includes('--ignore-gpu-blocklist'));
    assert.equal(plan.viewport, null);
    await headed.client.close();
    await headed.transport.exit;
  });

  test("a build in the vendor's own cache (~/.cloakbrowser/chromium-<version>) is known by its directory: --start-maximized on 148.0.7778.215.4 and later", async () => {
    const vendorDir = path.join(work.path, 'vendor-cache', 'chromium-150.0.7871.100.2');
    fs.mkdirSync(vendorDir, { recursive: true });
    fs.writeFileSync(path.join(vendorDir, 'chrome'), `#!/bin/sh\n[ "$1" = --version ] && { echo "Chromium 150.0.7871.100 "; exit 0; }\nexec ${process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium'} "$@"\n`, { mode: 0o755 });
    const server = await connect({ ...env(), PLAYWRIGHT_MCP_PROXY_SERVER: '', STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH: 'false', STEALTH_BINARY_PATH: path.join(vendorDir, 'chrome') }, ['--browser-prelaunch=false']);
    const binary = (await localInfo(server.client, 'stealth_binary_info'));
    assert.deepEqual(binary.stealthBuild, { version: '150.0.7871.100.2', from: 'build directory' });
    const plan = (await localInfo(server.client)).session.launch;
    assert.deepEqual(plan.switches.map((s: { switch: string }) => s.switch), ['--start-maximized']);
    assert.equal(plan.viewport, null);
    await server.client.close();
    await server.transport.exit;
  });

  test("the build the vendor's own client installed (~/.cloakbrowser/chromium-<pinned>) is used, not downloaded again", async () => {
    const home = path.join(work.path, 'home');
    const dir = path.join(home, '.cloakbrowser', `chromium-${VERSION}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'chrome'), `#!/bin/sh\n[ "$1" = --version ] && { echo "Chromium 146.0.7680.177 "; exit 0; }\nexec ${process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium'} "$@"\n`, { mode: 0o755 });
    const before = release.archiveRequests.length;
    const server = await connect({ ...env(), HOME: home, STEALTH_CACHE_DIR: path.join(work.path, 'empty-cache'), PLAYWRIGHT_MCP_PROXY_SERVER: '', STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH: 'false' });
    const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>vendor</title>' } });
    assert.ok(!nav.isError);
    const binary = await localInfo(server.client, 'stealth_binary_info');
    assert.equal(binary.source, 'vendor-cache');
    assert.equal(binary.executablePath, path.join(dir, 'chrome'));
    assert.equal(binary.stealthBuild.version, VERSION);
    assert.equal(release.archiveRequests.length, before, 'nothing downloaded');
    await server.client.close();
    await server.transport.exit;
  });

  test('stock Chromium under the stealth engine (--binary-path) is not taken for the stealth build', async () => {
    const server = await connect({ ...env(), STEALTH_BINARY_PATH: process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium' });
    const bridge = (await localInfo(server.client));
    const binary = (await localInfo(server.client, 'stealth_binary_info'));
    assert.equal(binary.stealthBuild, null);
    assert.equal(bridge.session.proxy.mode, 'driver');
    assert.equal(bridge.session.geoip.applied.webrtcIp, null);
    await server.client.close();
    await server.transport.exit;
  });
});
