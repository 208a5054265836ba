import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePageSuite } from './helpers/page-suite.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A page that wraps its own addEventListener and getBoundingClientRect sees
// every caller in its world. Playwright's injected script, once an element
// handle reaches the page's world, registers listeners there
// (`__playwright_global_listeners_check__`, pointerdown, mousedown...) with
// InjectedScript in the stack; the upstream does so on its first action on a
// ref. The page shows what it saw; it is read from the snapshot.
const PAGE = `<!doctype html><title>wrapped</title><button onclick="document.title = 'clicked'">Press</button><input aria-label="Field"><p id="seen"></p><script>
window.pageMarker = ' in the page';
const seen = [];
const add = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, ...rest) { seen.push(type); return add.call(this, type, ...rest); };
const measure = Element.prototype.getBoundingClientRect;
Element.prototype.getBoundingClientRect = function () { seen.push('getBoundingClientRect'); return measure.call(this); };
setInterval(() => (document.getElementById('seen').textContent = 'seen: ' + (seen.join(',') || 'nothing')), 10);
</script>`;

const page = usePageSuite('spm-main-world-', PAGE);
const { servers, output: dirs } = page;

const code = (text: string) => text.match(/### Ran Playwright code\n```js\n([\s\S]*?)\n```/)?.[1];

async function drive(server: Connected) {
  servers.push(server);
  const call = async (name: string, args: Record<string, unknown> = {}) => textOf(await server.client.callTool({ name, arguments: args }));
  await call('browser_navigate', { url: page.site.url });
  const snap = await call('browser_snapshot');
  const ref = (role: string) => snap.match(new RegExp(`${role} "[^"]*" \\[ref=(\\w+)\\]`))![1]!;
  const clicked = await call('browser_click', { target: ref('button'), element: 'Press' });
  const typed = await call('browser_type', { target: ref('textbox'), element: 'Field', text: 'hi' });
  await call('browser_hover', { target: ref('button'), element: 'Press' });
  const seen = (await call('browser_snapshot')).match(/seen: ([^\n"]*)/)![1]!;
  // The user's own script on an element runs in the page's world, as on the upstream.
  const evaluated = (await call('browser_evaluate', { function: '(element) => element.textContent + window.pageMarker', target: ref('button'), element: 'Press' })).match(/### Result\n(.*)/)![1]!;
  return { seen, codes: [code(clicked), code(typed)], evaluated };
}

test("Playwright's script stays out of the page's world through clicks, typing and hovers; the user's evaluate on an element runs there (the upstream CLI alongside)", { timeout: 120_000 }, async (t) => {
  const upstream = await drive(await connectUpstream(`${dirs.path}/upstream`));
  const ours = await drive(await connect(testEnv(`${dirs.path}/ours`)));
  t.diagnostic(`upstream: the page saw ${upstream.seen}`);
  t.diagnostic(`ours: the page saw ${ours.seen}`);
  assert.equal(ours.seen, 'nothing');
  assert.deepEqual(ours.codes, upstream.codes);
  assert.ok(ours.codes.every(Boolean), JSON.stringify(ours.codes));
  assert.equal(ours.evaluated, upstream.evaluated);
  assert.equal(ours.evaluated, '"Press in the page"');
});
