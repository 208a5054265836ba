import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePageSuite } from './helpers/page-suite.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A page gains user activation from input (keydown, mousedown, pointerup...),
// and only from input in an unautomated browser. Playwright runs its own
// evaluations (the snapshot in every result, a title, an element's checks
// before a click) with a user gesture, which activates the page with no event
// at all: navigator.userActivation.hasBeenActive reads true while not one
// input event fired. The page below shows both as they change, read from the
// snapshot (a user's browser_evaluate runs with the gesture on both sides);
// the upstream CLI runs the same calls in the same run.
const PAGE = `<!doctype html><title>activation</title><button onclick="document.title = 'clicked'">Press</button><p id="seen"></p><script>
const seen = [];
let events = 0;
for (const type of ['keydown', 'mousedown', 'pointerdown', 'pointerup', 'touchend']) addEventListener(type, () => events++, true);
let last = '';
setInterval(() => {
  const now = navigator.userActivation.hasBeenActive + ' after ' + events + ' input events';
  if (now !== last) seen.push(now), (document.getElementById('seen').textContent = seen.join('; '));
  last = now;
}, 5);
</script>`;

const page = usePageSuite('spm-activation-', PAGE);
const { servers, output: dirs } = page;

async function drive(server: Connected): Promise<{ idle: string[]; clicked: string[]; popupOpened: string }> {
  servers.push(server);
  const call = async (name: string, args: Record<string, unknown> = {}) => textOf(await server.client.callTool({ name, arguments: args }));
  const seen = async () => (await call('browser_snapshot')).match(/paragraph[^:\n]*: (.*)/)![1]!.split('; ');
  await call('browser_navigate', { url: page.site.url });
  await call('browser_snapshot');
  await call('browser_tabs', { action: 'list' });
  await call('browser_console_messages');
  const idle = await seen();
  const ref = (await call('browser_snapshot')).match(/button "Press" \[ref=([a-z0-9]+)\]/)![1]!;
  await call('browser_click', { target: ref, element: 'Press' });
  const clicked = await seen();
  // Script the user runs in the page keeps the gesture, as on the upstream: a pop-up opens.
  const popupOpened = (await call('browser_evaluate', { function: '() => String(Boolean(window.open("about:blank")))' })).match(/### Result\n"?(\w+)/)![1]!;
  return { idle, clicked, popupOpened };
}

test('a page is activated by input only: the snapshot, tabs and console reads leave it inactive; a click activates it with its events (the upstream CLI alongside)', { timeout: 120_000 }, async (t) => {
  const upstream = await drive(await connectUpstream(`${dirs.path}/upstream`));
  const ours = await drive(await connect(testEnv(`${dirs.path}/ours`)));
  t.diagnostic(`upstream: idle ${JSON.stringify(upstream.idle)}, after the click ${JSON.stringify(upstream.clicked)}`);
  t.diagnostic(`ours: idle ${JSON.stringify(ours.idle)}, after the click ${JSON.stringify(ours.clicked)}`);
  assert.deepEqual(ours.idle, ['false after 0 input events']);
  const activated = ours.clicked.find((state) => state.startsWith('true'));
  assert.ok(activated && !activated.endsWith(' 0 input events'), `activated by the click's own events: ${JSON.stringify(ours.clicked)}`);
  assert.equal(ours.popupOpened, upstream.popupOpened);
  assert.equal(ours.popupOpened, 'true');
});
