import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { descendants } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Chromium keeps the last value of a repeated switch. Side by side with the
// upstream CLI: Playwright's own enabled and disabled features survive ours,
// the network service runs inside the browser process, and no renderer is
// started for the address bar's WebUI popup (less memory per browser).

// Chromium rewrites its process title: /proc/<pid>/cmdline may be one space-separated string.
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

interface BrowserFacts {
  enabled: string[];
  disabled: string[];
  /** Times the browser's command line names each feature switch (Chromium reads only the last). */
  switchCount: number;
  networkProcess: boolean;
  /** Renderers of browser UI pages (chrome://*.top-chrome), which pages never see. */
  uiRenderers: number;
}

/** The browser process's effective features and the helper processes it runs. */
function browserFacts(serverPid: number): BrowserFacts {
  const processes = descendants(serverPid).map(commandOf).filter((c) => /chrom/i.test(c.split(' ')[0] ?? ''));
  const main = processes.find((c) => !/ --type=/.test(c));
  assert.ok(main, 'a browser process');
  const last = (name: string) => [...main.matchAll(new RegExp(`--${name}=(\\S+)`, 'g'))].at(-1)?.[1]?.split(',') ?? [];
  return {
    enabled: last('enable-features'),
    disabled: last('disable-features'),
    switchCount: [...main.matchAll(/--(en|dis)able-features=/g)].length,
    networkProcess: processes.some((c) => c.includes('--utility-sub-type=network.mojom.NetworkService')),
    uiRenderers: processes.filter((c) => c.includes('--type=renderer') && c.includes('--top-chrome-webui')).length,
  };
}

describe('Chromium features: Playwright\'s survive ours; the network service in the browser process', () => {
  const output = useTempDir('spm-features-');
  let site: Site;
  const servers: Connected[] = [];
  before(async () => (site = await startSite()));
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  const disabledByPlaywright = new Set<string>();

  test('against the upstream CLI in the same run', { timeout: 120_000 }, async () => {
    const facts: Record<string, BrowserFacts> = {};
    for (const [label, start] of [
      ['upstream', () => connectUpstream(`${output.path}/upstream`)],
      ['ours', () => connect(testEnv(`${output.path}/ours`))],
      ['ours, playwright engine', () => connect(testEnv(`${output.path}/ours-pw`, { STEALTH_BINARY_PATH: '' }), ['--browser-engine', 'playwright'])],
    ] as const) {
      const server = await start();
      servers.push(server);
      const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
      assert.ok(!nav.isError, textOf(nav));
      facts[label] = browserFacts(server.transport.pid!);
    }
    for (const label of ['ours', 'ours, playwright engine'] as const) {
      const mine = facts[label]!;
      for (const feature of facts.upstream!.enabled) assert.ok(mine.enabled.includes(feature), `${label}: Playwright's enabled ${feature} is kept (${mine.enabled})`);
      for (const feature of facts.upstream!.disabled) assert.ok(mine.disabled.includes(feature), `${label}: Playwright's disabled ${feature} is kept (${mine.disabled})`);
      assert.equal(mine.switchCount, 2, `${label}: one --enable-features and one --disable-features`);
      assert.ok(mine.disabled.includes('WebUIOmniboxPopup') && mine.disabled.includes('WebUIOmniboxAimPopup'), `${label}: ${mine.disabled}`);
      assert.equal(mine.uiRenderers, 0, `${label}: no renderer for the omnibox popup's WebUI`);
    }
    facts.upstream!.disabled.forEach((f) => disabledByPlaywright.add(f));
    // The saving is real only if the upstream's Chromium does start that renderer.
    assert.equal(facts.upstream!.uiRenderers, 1, 'the upstream runs one renderer for the omnibox WebUI');
    assert.equal(facts.upstream!.networkProcess, true, 'the upstream runs a network service process');
    assert.equal(facts.ours!.networkProcess, false, 'ours runs the network service in the browser process');
    assert.ok(facts.ours!.enabled.includes('NetworkServiceInProcess2'));
  });

  test('a feature list in the launch args adds to Playwright\'s and ours instead of replacing them', { timeout: 60_000 }, async () => {
    assert.ok(disabledByPlaywright.size > 0, 'runs after the side-by-side test');
    const config = `${output.path}/features-config.json`;
    fs.writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: ['--disable-features=BackForwardCache', '--enable-features=ParallelDownloading'] } } }));
    const server = await connect(testEnv(`${output.path}/ours-args`), ['--config', config]);
    servers.push(server);
    const nav = await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    assert.ok(!nav.isError, textOf(nav));
    const mine = browserFacts(server.transport.pid!);
    assert.equal(mine.switchCount, 2, 'one switch of each');
    for (const feature of [...disabledByPlaywright, 'WebUIOmniboxPopup', 'BackForwardCache']) assert.ok(mine.disabled.includes(feature), `${feature} disabled: ${mine.disabled}`);
    for (const feature of ['NetworkServiceInProcess2', 'ParallelDownloading']) assert.ok(mine.enabled.includes(feature), `${feature} enabled: ${mine.enabled}`);
  });
});
