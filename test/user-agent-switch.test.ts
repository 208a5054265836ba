import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, localInfo, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A config file whose launchOptions.args carry a --user-agent switch (as
// Puppeteer users write it): the upstream's pages, and their workers, read
// that user agent. Ours added its own headed user agent as a later switch,
// which Chromium took instead: the user's was silently replaced. The page's
// client hints come with it (a switch alone empties them: no full version
// list), and on the stealth engine the platform the agent names is the build's.

const MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const READ = `async () => {
  const worker = await new Promise((resolve) => { const w = new Worker(URL.createObjectURL(new Blob(['postMessage(navigator.userAgent)']))); w.onmessage = (e) => resolve(e.data); });
  const hints = await navigator.userAgentData.getHighEntropyValues(['fullVersionList']);
  return JSON.stringify({ page: navigator.userAgent, worker, fullVersions: hints.fullVersionList.length });
}`;

describe('a --user-agent switch in the config file is the user agent, as on the upstream CLI', () => {
  const site = useSite();
  const output = useTempDir('spm-ua-switch-');

  async function read(server: Connected): Promise<{ page: string; worker: string; fullVersions: number }> {
    try {
      const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
      assert.ok(!nav.isError, textOf(nav));
      const answer = textOf(await server.client.callTool({ name: 'browser_evaluate', arguments: { function: READ } }));
      return JSON.parse(JSON.parse(/^### Result\n(.*)$/m.exec(answer)![1]!) as string);
    } finally {
      await closeAll([server]);
    }
  }

  test('headless, a Mac user agent: the page and its worker read it on both, ours with its client hints and the build platform it names', { timeout: 90_000 }, async (t) => {
    const config = `${output.path}/config.json`;
    fs.writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: [`--user-agent=${MAC_UA}`] } } }));
    const upstream = await read(await connectUpstream(`${output.path}/upstream`, ['--config', config]));
    const server = await connect(testEnv(`${output.path}/ours`), ['--headless', '--config', config]);
    const platform = (await localInfo(server.client)).session.launch.platform;
    const ours = await read(server);
    t.diagnostic(`upstream ${JSON.stringify(upstream)}; ours ${JSON.stringify(ours)}, platform ${platform}`);
    assert.deepEqual({ page: upstream.page, worker: upstream.worker }, { page: MAC_UA, worker: MAC_UA }, 'the reference: the upstream CLI gives the switch');
    assert.deepEqual({ page: ours.page, worker: ours.worker }, { page: MAC_UA, worker: MAC_UA });
    assert.ok(ours.fullVersions > 0, 'the client hints are there');
    assert.equal(platform, 'macos');
  });
});
