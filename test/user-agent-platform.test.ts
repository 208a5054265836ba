import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { commandLine, descendants } from './helpers/processes.ts';
import { closeAll, connect, localInfo, testEnv, textOf } from './helpers/server.ts';

// A user agent the user sets reaches the page with its client hints
// (Playwright's override: macOS for a Mac's). The stealth build's own
// navigator.platform, GPU strings and fonts follow --fingerprint-platform; the
// default (windows) beside a Mac's user agent is the contradiction detectors
// look for (fpscanner's hasPlatformMismatch). The user agent picks the
// platform where the build has one. The stock Chromium here ignores the
// switch, so what is checked is the switch the build gets and what the
// session reports, beside the client hints the page reads.

const MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const HINTS = "async () => (await navigator.userAgentData.getHighEntropyValues(['platform'])).platform";

describe('a user agent the user set picks the stealth build platform it names', () => {
  const site = useSite();
  const output = useTempDir('spm-ua-platform-');

  async function launched(args: string[]): Promise<{ platform: string; switch: string | undefined; hints: string }> {
    const server = await connect(testEnv(output.path), ['--headless', ...args]);
    try {
      const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
      assert.ok(!nav.isError, textOf(nav));
      const info = await localInfo(server.client);
      const browser = descendants(server.transport.pid).map(commandLine).find((line) => line.includes(`--fingerprint=${info.session.launch.seed}`));
      const hints = textOf(await server.client.callTool({ name: 'browser_evaluate', arguments: { function: HINTS } }));
      return { platform: info.session.launch.platform, switch: browser?.match(/--fingerprint-platform=(\S+)/)?.[1], hints: hints.match(/^### Result\n"(.*)"/m)?.[1] ?? hints };
    } finally {
      await closeAll([server]);
    }
  }

  test("a Mac's user agent: the build presents macOS, as the page's client hints say", { timeout: 60_000 }, async () => {
    const mac = await launched(['--user-agent', MAC_UA]);
    assert.deepEqual(mac, { platform: 'macos', switch: 'macos', hints: 'macOS' });
  });

  test("without one, and with a phone's (no build platform for it): the default, Windows", { timeout: 60_000 }, async () => {
    const plain = await launched([]);
    assert.equal(plain.platform, 'windows');
    assert.equal(plain.switch, 'windows');
    const phone = await launched(['--device', 'iPhone 15']);
    assert.deepEqual(phone, { platform: 'windows', switch: 'windows', hints: 'iOS' });
  });
});
