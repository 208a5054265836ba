import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { startEchoSite, startHttpProxy, type EchoSite, type TestProxy } from './helpers/proxies.ts';
import { startReleaseServer, VERSION, type ReleaseServer } from './helpers/release-server.ts';
import { connect, testEnv } from './helpers/server.ts';

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

  test('stock Chromium under the stealth engine (--binary-path) is not taken for the stealth build', async () => {
    const server = await connect({ ...env(), STEALTH_BINARY_PATH: process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium' });
    const bridge = ((await server.client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any }).structuredContent;
    const binary = ((await server.client.callTool({ name: 'stealth_binary_info', arguments: {} })) as { structuredContent: any }).structuredContent;
    assert.equal(binary.stealthBuild, null);
    assert.equal(bridge.session.proxy.mode, 'driver');
    assert.equal(bridge.session.geoip.applied.webrtcIp, null);
    await server.client.close();
    await server.transport.exit;
  });
});
