import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { servePage, type Site } from './helpers/site.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// One browser_fill_form with every kind of field, the refs all from one
// snapshot, then browser_type with submit: the form must be sent with the
// same data as under the upstream. Humanised select used to check the focus
// with an 'ai' aria snapshot of the select, which replaced the refs of the
// agent's snapshot: every field after a combobox failed with "Ref ... not
// found in the current page snapshot".

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
<form onsubmit="event.preventDefault(); seen.push([...new FormData(this)].map((e) => e.join('=')).join('&'))">
<input name="t" aria-label="Text" value="old"><input type="checkbox" name="c" aria-label="Check">
<input type="radio" name="r" value="r1" aria-label="R1"><input type="radio" name="r" value="r2" aria-label="R2">
<input type="range" name="s" aria-label="Slide" min="0" max="10" value="2">
<select name="o" aria-label="Pick"><option>p1</option><option>p2</option></select>
<textarea name="a" aria-label="Area"></textarea><button>Go</button></form>
<script>window.seen = [];</script></body></html>`;

async function call(server: Connected, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await server.client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: ${textOf(result)}`);
  return textOf(result);
}

describe('browser_fill_form', () => {
  const dirs = useTempDir('spm-fill-form-');
  let site: Site;
  const servers: Connected[] = [];
  before(async () => {
    site = await servePage(FORM);
  });
  after(async () => {
    await closeAll(servers);
    await site.close();
  });

  test('every kind of field from one snapshot, then a submit: the same data is sent as under the upstream CLI', { timeout: 180_000 }, async () => {
    const [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream`), connect(testEnv(`${dirs.path}/ours`))]);
    servers.push(upstream, ours);
    const run = async (server: Connected) => {
      await call(server, 'browser_navigate', { url: site.url });
      const snapshot = await call(server, 'browser_snapshot');
      const ref = (label: string) => {
        const found = snapshot.match(new RegExp(`"${label}"[^\\n]*\\[ref=([a-z0-9]+)\\]`))?.[1];
        assert.ok(found, `${label} in ${snapshot}`);
        return found;
      };
      await call(server, 'browser_fill_form', {
        fields: [
          { name: 'Text', type: 'textbox', target: ref('Text'), value: 'Hello World' },
          { name: 'Pick', type: 'combobox', target: ref('Pick'), value: 'p2' },
          { name: 'Check', type: 'checkbox', target: ref('Check'), value: 'true' },
          { name: 'R2', type: 'radio', target: ref('R2'), value: 'true' },
          { name: 'Slide', type: 'slider', target: ref('Slide'), value: '7' },
          { name: 'Area', type: 'textbox', target: ref('Area'), value: 'Ada' },
        ],
      });
      await call(server, 'browser_type', { element: 'Text', target: ref('Text'), text: 'Typed', submit: true });
      return call(server, 'browser_evaluate', { function: '() => JSON.stringify(seen)' }).then((text) => text.match(/### Result\n(.*)/)?.[1]);
    };
    const theirs = await run(upstream);
    const mine = await run(ours);
    assert.equal(theirs, JSON.stringify(JSON.stringify(['t=Typed&c=on&r=r2&s=7&o=p2&a=Ada'])));
    assert.equal(mine, theirs);
  });
});
