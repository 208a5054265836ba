import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { clientHintsFor } from '../src/browser/client-hints.ts';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, type Connected } from './helpers/server.ts';
import { Reports, unautomated } from './helpers/unautomated.ts';

// Headless stock Chromium is given our user agent by a launch switch (no
// "HeadlessChrome"), and that switch empties the user-agent client hints:
// getHighEntropyValues() answers no full version, architecture or bitness,
// and the Sec-CH-UA-Full-Version-List header a site asks for is never sent.
// The yardstick is the same Chromium, unautomated: every hint a page, its
// dedicated, shared and service workers, and its requests can read must be
// what that browser gives (its user agent string aside, which says Headless).
const HINTS = `['architecture','bitness','model','platformVersion','uaFullVersion','fullVersionList','wow64','formFactors']`;
const READ = `navigator.userAgentData.getHighEntropyValues(${HINTS}).then((h) => ({ ...h, brands: navigator.userAgentData.brands, mobile: navigator.userAgentData.mobile, platform: navigator.userAgentData.platform, ua: navigator.userAgent }))`;
const PAGE = `<!doctype html><title>hints</title><script>
const read = () => ${READ};
(async () => {
  const dedicated = await new Promise((resolve) => { const w = new Worker(URL.createObjectURL(new Blob(['(' + read + ')().then(postMessage)']))); w.onmessage = (e) => resolve(e.data); });
  const shared = await new Promise((resolve) => { const w = new SharedWorker('/shared.js'); w.port.onmessage = (e) => resolve(e.data); });
  await navigator.serviceWorker.register('/service.js');
  const registration = await navigator.serviceWorker.ready;
  const service = await new Promise((resolve) => { navigator.serviceWorker.onmessage = (e) => resolve(e.data); registration.active.postMessage('read'); });
  const headers = await (await fetch('/headers')).json();
  await fetch('/report', { method: 'POST', body: JSON.stringify({ window: await read(), dedicated, shared, service, headers }) });
  document.title = 'reported';
})();
</script>`;
const WORKER_SCRIPTS: Record<string, string> = {
  '/shared.js': `onconnect = async (e) => e.ports[0].postMessage(await ${READ});`,
  '/service.js': `addEventListener('message', async (e) => e.source.postMessage(await ${READ}));`,
};

type Seen = Record<'window' | 'dedicated' | 'shared' | 'service', Record<string, unknown>> & { headers: Record<string, string> };

let site: http.Server;
let origin: string;
const reports = new Reports();
const servers: Connected[] = [];
const dirs = useTempDir('spm-hints-');

before(async () => {
  site = http.createServer((req, res) => {
    if (reports.take(req, res)) return;
    if (req.url === '/headers') {
      const hints = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith('sec-ch-ua')));
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(hints));
    }
    const script = WORKER_SCRIPTS[req.url ?? ''];
    if (script) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    // What a site asks for: the high-entropy hints on every later request.
    res.writeHead(200, { 'content-type': 'text/html', 'accept-ch': 'Sec-CH-UA-Full-Version-List, Sec-CH-UA-Full-Version, Sec-CH-UA-Arch, Sec-CH-UA-Bitness, Sec-CH-UA-Model, Sec-CH-UA-Platform-Version, Sec-CH-UA-WoW64' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(async () => {
  await closeAll(servers);
  site?.close();
});

const withoutUserAgent = ({ ua: _, ...rest }: Record<string, unknown>) => rest;

test('headless: the user agent is a headed one and its client hints read as the unautomated Chromium, in the page, every kind of worker and the requests', { timeout: 120_000 }, async (t) => {
  const control = JSON.parse(await unautomated(`${origin}/`, `${dirs.path}/control`, reports)) as Seen;
  const server = await connect(testEnv(`${dirs.path}/ours`));
  servers.push(server);
  const seen = reports.next();
  await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${origin}/` } });
  const ours = JSON.parse(await seen) as Seen;
  t.diagnostic(`unautomated: ${JSON.stringify(control.window)}; headers ${JSON.stringify(control.headers)}`);
  assert.ok((control.window.fullVersionList as unknown[]).length > 0, 'the unautomated Chromium gives its full version list');
  for (const where of ['window', 'dedicated', 'shared', 'service'] as const) {
    assert.doesNotMatch(String(ours[where].ua), /Headless/, where);
    assert.deepEqual(withoutUserAgent(ours[where]), withoutUserAgent(control[where]), where);
  }
  assert.deepEqual(ours.headers, control.headers);
});

// Other versions cannot run here: their Sec-CH-UA headers as Chrome and
// Chromium sent them are the reference for the GREASE brand and the order.
test('the brand lists of other versions and of Google Chrome are the ones those browsers sent', () => {
  const header = (version: string, product: string) => {
    const hints = clientHintsFor('ua', version, `${product} ${version}`, { platform: 'linux', arch: 'x64' })!;
    return hints.userAgentMetadata.brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ');
  };
  assert.equal(header('120.0.6099.109', 'Google Chrome'), '"Not_A Brand";v="8", "Chromium";v="120", "Google Chrome";v="120"');
  assert.equal(header('126.0.6478.126', 'Google Chrome'), '"Not/A)Brand";v="8", "Chromium";v="126", "Google Chrome";v="126"');
  assert.equal(header('131.0.6778.85', 'Google Chrome'), '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"');
  assert.equal(header('143.0.7499.40', 'Google Chrome'), '"Google Chrome";v="143", "Chromium";v="143", "Not A(Brand";v="24"');
  const full = clientHintsFor('ua', '143.0.7499.40', 'Google Chrome 143.0.7499.40', { platform: 'linux', arch: 'arm64' })!.userAgentMetadata;
  assert.deepEqual(full.fullVersionList.map((b) => b.version), ['143.0.7499.40', '143.0.7499.40', '24.0.0.0']);
  assert.equal(full.architecture, 'arm');
  // Where the hints are not known, none are made up.
  assert.equal(clientHintsFor('ua', '143.0.7499.40', 'Google Chrome 143.0.7499.40', { platform: 'darwin', arch: 'arm64' }), undefined);
  assert.equal(clientHintsFor('ua', '143.0.7499.40', 'Microsoft Edge 143.0.3650.66', { platform: 'linux', arch: 'x64' }), undefined);
});
