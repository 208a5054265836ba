import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { servePage, type Site } from './helpers/site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Fields a page replaces while they are typed in: `?rerender` renders its
// field anew 30 ms after each input (the value kept, the focus handed to the
// new element), `?swap` swaps it for another element at the first input, as
// search boxes that grow into a suggestion widget do. The upstream fills the
// field in one go (milliseconds); ours types it key by key (seconds), so the
// ref's element is gone by the time its keys are in. Ours used to report a
// 5 s timeout for a field it had typed in (its check of the typed value
// found no element, and the fallback, Playwright's fill, waited for it), and
// the submit's Enter waited for the gone element too. `?focus-swap` swaps the
// field for a new one as it takes the focus (a component re-rendered on
// focus): ours clicks it, and its keys go to the new field, as a person's
// would; they used to go nowhere (the fallback fill waited 5 s for the gone
// element). The upstream's fill focuses it by script and inserts the text at
// once, into the new one. The page shows what a user sees: the field's value,
// and what Enter sent.
const PAGE = `<!doctype html><title>Fields</title><div id="f"></div><p id="out"></p><script>
  const f = document.getElementById('f');
  const keys = (input) => (input.onkeydown = (e) => { if (e.key === 'Enter') document.title = 'sent: ' + input.value; });
  let value = '';
  function render() {
    f.innerHTML = '<input aria-label="Name">';
    const input = f.firstChild;
    input.value = value;
    keys(input);
    const swap = () => { f.dataset.swapped = '1'; const next = document.createElement('input'); next.setAttribute('aria-label', 'Name'); next.value = input.value; keys(next); next.oninput = () => (value = next.value); input.replaceWith(next); next.focus(); };
    if (location.search === '?focus-swap') input.onfocus = swap;
    input.oninput = () => {
      value = input.value;
      if (location.search === '?rerender') setTimeout(() => { const had = document.activeElement === input; render(); if (had) { f.firstChild.focus(); f.firstChild.setSelectionRange(value.length, value.length); } }, 30);
      if (location.search === '?swap' && !f.dataset.swapped) swap();
    };
  }
  render();
  setInterval(() => (document.getElementById('out').textContent = 'value: ' + f.firstChild.value), 20);
</script>`;

describe('browser_type into a field the page replaces as it is typed in (the upstream CLI alongside)', { timeout: 240_000 }, () => {
  const dirs = useTempDir('spm-rerendered-');
  let site: Site;
  const servers: Connected[] = [];
  let upstream: Connected;
  let ours: Connected;
  before(async () => {
    site = await servePage(PAGE);
    [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream`), connect(testEnv(`${dirs.path}/ours`))]);
    servers.push(upstream, ours);
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  /** Types into the field on `mode`'s page; what the tool answered and what the page shows after it. */
  async function typeInto(server: Connected, mode: string, submit: boolean, slowly: boolean): Promise<{ error: string | undefined; shown: string }> {
    await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}?${mode}` } });
    const snapshot = textOf(await server.client.callTool({ name: 'browser_snapshot', arguments: {} }));
    const ref = /textbox "Name" \[ref=([^\]]+)\]/.exec(snapshot)?.[1];
    assert.ok(ref, snapshot);
    const typed = await server.client.callTool({ name: 'browser_type', arguments: { element: 'Name', target: ref, text: 'hello world', ...(submit ? { submit: true } : {}), ...(slowly ? { slowly: true } : {}) } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const read = await server.client.callTool({ name: 'browser_evaluate', arguments: { function: "() => document.title + ' | ' + document.getElementById('out').textContent" } });
    return { error: typed.isError ? textOf(typed).slice(0, 300) : undefined, shown: /### Result\n"(.*)"/.exec(textOf(read))?.[1] ?? textOf(read) };
  }

  const cases = [['rerender', false, false], ['rerender', true, false], ['swap', false, false], ['swap', true, false], ['focus-swap', false, false], ['focus-swap', true, false], ['focus-swap', false, true]] as const;
  for (const [mode, submit, slowly] of cases) {
    test(`?${mode}${submit ? ', submit' : ''}${slowly ? ', slowly' : ''}: the text is in the field (and sent), and the tool says so`, async (t) => {
      const theirs = await typeInto(upstream, mode, submit, slowly);
      const mine = await typeInto(ours, mode, submit, slowly);
      t.diagnostic(`upstream: ${theirs.error ? 'error' : 'ok'}, ${theirs.shown}; ours: ${mine.error ? 'error' : 'ok'}, ${mine.shown}`);
      assert.equal(mine.error, undefined);
      assert.equal(mine.shown, `${submit ? 'sent: hello world' : 'Fields'} | value: hello world`);
      // Where the upstream's own fill and Enter land before the page replaces the field, it reads the same (its Enter can wait for a gone element too: always on ?swap and ?focus-swap, sometimes on ?rerender).
      if (!theirs.error) assert.equal(mine.shown, theirs.shown);
    });
  }
});
