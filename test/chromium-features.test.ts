import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { descendants } from './helpers/processes.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Chromium keeps the last value of a repeated switch. Side by side with the
// upstream CLI: Playwright's own enabled features survive ours, and the
// network service runs inside the browser process (less memory per browser).

// Chromium rewrites its process title: /proc/<pid>/cmdline may be one space-separated string.
function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The browser process's effective enabled features, and whether a separate network service process runs. */
function browserFacts(serverPid: number): { enabled: string[]; networkProcess: boolean } {
  const processes = descendants(serverPid).map(commandOf).filter((c) => /chrom/i.test(c.split(' ')[0] ?? ''));
  const main = processes.find((c) => !/ --type=/.test(c));
  assert.ok(main, 'a browser process');
  const enabled = [...main.matchAll(/--enable-features=(\S+)/g)].at(-1)?.[1]?.split(',') ?? [];
  return { enabled, networkProcess: processes.some((c) => c.includes('--utility-sub-type=network.mojom.NetworkService')) };
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

  test('against the upstream CLI in the same run', { timeout: 120_000 }, async () => {
    const facts: Record<string, ReturnType<typeof browserFacts>> = {};
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
    for (const feature of facts.upstream!.enabled) {
      assert.ok(facts.ours!.enabled.includes(feature), `Playwright's ${feature} is kept (ours: ${facts.ours!.enabled})`);
      assert.ok(facts['ours, playwright engine']!.enabled.includes(feature), `Playwright's ${feature} is kept on the playwright engine`);
    }
    assert.equal(facts.upstream!.networkProcess, true, 'the upstream runs a network service process');
    assert.equal(facts.ours!.networkProcess, false, 'ours runs the network service in the browser process');
    assert.ok(facts.ours!.enabled.includes('NetworkServiceInProcess2'));
  });
});
