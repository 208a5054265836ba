import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, type Connected } from './helpers/server.ts';
import { Reports, unautomated } from './helpers/unautomated.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A real Chromium throttles a page that floods its session history (IPC
// flooding protection: about 200 state changes, the rest dropped with a
// console warning). Playwright turns that off by default: a page can count the
// difference, and a page that pushes history entries in a loop swamps the
// browser process, so not even its tab can be closed. The unautomated Chromium
// is the yardstick; the upstream CLI, with Playwright's defaults, is reported.
const FLOOD_PAGE = `<!doctype html><title>history</title><script>
  // history.length stops at 50 either way; a dropped state change leaves the URL as it was.
  let taken = 0;
  for (let i = 0; i < 300; i++) { history.pushState({}, '', '?n=' + i); if (location.search === '?n=' + i) taken++; }
  fetch('/report', { method: 'POST', body: String(taken) }).then(() => (document.title = 'reported'));
</script>`;

let page: http.Server;
let url: string;
const reports = new Reports();
const servers: Connected[] = [];
const dirs = useTempDir('spm-history-');

before(async () => {
  page = http.createServer((req, res) => {
    if (!reports.take(req, res)) res.writeHead(200, { 'content-type': 'text/html' }).end(FLOOD_PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/flood`;
});
after(async () => {
  await closeAll(servers);
  page?.close();
});

async function viaMcp(server: Connected): Promise<string> {
  servers.push(server);
  const seen = reports.next(20_000);
  await server.client.callTool({ name: 'browser_navigate', arguments: { url } });
  return seen;
}

test('a page flooding its history is throttled as in an unautomated Chromium (the upstream CLI reported alongside)', { timeout: 120_000 }, async (t) => {
  const control = Number(await unautomated(url, `${dirs.path}/control`, reports));
  const upstream = Number(await viaMcp(await connectUpstream(`${dirs.path}/upstream`)));
  const ours = Number(await viaMcp(await connect(testEnv(`${dirs.path}/ours`))));
  t.diagnostic(`pushState calls that took effect of 300: unautomated ${control}, upstream CLI ${upstream}, ours ${ours}`);
  assert.ok(control < 300, `the unautomated Chromium throttled (${control} of 300)`);
  assert.equal(ours, control);
});
