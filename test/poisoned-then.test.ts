import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { usePageSuite } from './helpers/page-suite.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A page written to break drivers gives every object a `then` that never calls
// back: each `await` of a plain object, and each return of one from an async
// function, then waits forever. Under the upstream CLI browser_evaluate never
// answers on such a page, whatever the function returns (its wrapper is async
// and returns an object). Ours must answer as the upstream does on the same
// page without the poison.
const PAGE = `<!doctype html><title>Then</title><input id="name" aria-label="Name" value="Ada"><script>
window.thenable = { then(resolve) { resolve(42); } };
window.notThenable = { then: 5, x: 1 };
if (location.search === '?poisoned') Object.prototype.then = function () {};
</script>`;

const CALLS: Record<string, unknown>[] = [
  { function: '() => 1' },
  { function: '() => document.title' },
  { function: '() => ({ a: 1, list: [1, { b: 2 }], at: new Date(0) })' },
  { function: 'async () => 3' },
  { function: '() => new Promise((resolve) => setTimeout(() => resolve(7), 10))' },
  { function: '() => window.thenable' },
  { function: '() => [window.notThenable.x, typeof window.notThenable.then]' },
  { function: '() => { throw new RangeError("out of range") }' },
];

const page = usePageSuite('spm-poisoned-then-', PAGE);
const { servers, output: dirs } = page;

/** Each call's answer up to its code block (an error's first line only: its stack names other frames on each side). */
async function evaluations(server: Connected, query: string): Promise<string[]> {
  servers.push(server);
  await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${page.site.url}/${query}` } });
  const ref = textOf(await server.client.callTool({ name: 'browser_snapshot', arguments: {} })).match(/textbox "Name" \[ref=(\w+)\]/)?.[1];
  const answers: string[] = [];
  for (const args of [...CALLS, { element: 'Name', target: ref, function: '(e) => e.value + "!"' }]) {
    const text = textOf(await server.client.callTool({ name: 'browser_evaluate', arguments: args }));
    answers.push(text.startsWith('### Error') ? text.split('\n').slice(0, 2).join('\n') : text.split('### Ran')[0]!);
  }
  return answers;
}

test('a page whose Object.prototype has a then that never calls back: browser_evaluate answers as on the plain page (the upstream CLI alongside)', { timeout: 240_000 }, async (t) => {
  const upstream = await connectUpstream(path.join(dirs.path, 'upstream'));
  const theirs = await evaluations(upstream, '?plain');
  const ours = await connect(testEnv(path.join(dirs.path, 'ours')));
  assert.deepEqual(await evaluations(ours, '?plain'), theirs, 'on the plain page ours reads as the upstream');
  // What the upstream does on the poisoned page, for the report: one call, given 5 s.
  await upstream.client.callTool({ name: 'browser_navigate', arguments: { url: `${page.site.url}/?poisoned` } });
  const started = performance.now();
  const outcome = await upstream.client.callTool({ name: 'browser_evaluate', arguments: { function: '() => 1' } }, undefined, { timeout: 5000 }).then(
    (result) => `answered: ${textOf(result).split('\n').slice(0, 2).join(' ')}`,
    (error: Error) => `no answer (${error.message})`,
  );
  t.diagnostic(`upstream CLI, poisoned page, () => 1: ${outcome} after ${Math.round(performance.now() - started)} ms`);
  const poisoned = await evaluations(ours, '?poisoned');
  assert.deepEqual(poisoned, theirs, 'on the poisoned page ours answers what the upstream answers on the plain one');
});

// browser_run_code_unsafe's own page.evaluate, locator.evaluate and $eval return by value
// too. (An evaluateHandle of an object, or a page function that is itself async and returns
// an object, waits on such a page as in an unautomated Chromium: the page's own `then` holds it.)
const RUN_CODE = `async (page) => [
  await page.evaluate(() => ({ a: 1, list: [1, { b: 2 }], at: new Date(0) })),
  await page.evaluate(async () => 4),
  await page.evaluate(([x, y]) => ({ sum: x + y }), [2, 3]),
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve(7), 10))),
  await page.locator('#name').evaluate((e) => ({ value: e.value })),
  await page.$eval('#name', (e) => [e.id]),
  await page.evaluate(() => window.thenable),
]`;

async function runCode(server: Connected, query: string): Promise<string[]> {
  servers.push(server);
  await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${page.site.url}/${query}` } });
  const answers: string[] = [];
  for (const code of [RUN_CODE, 'async (page) => page.evaluate(() => { throw new RangeError("out of range") })']) {
    const text = textOf(await server.client.callTool({ name: 'browser_run_code_unsafe', arguments: { code } }, undefined, { timeout: 30_000 }));
    answers.push(text.startsWith('### Error') ? text.split('\n').slice(0, 2).join('\n') : text.split('### Ran')[0]!);
  }
  return answers;
}

test("the same page: browser_run_code_unsafe's page.evaluate calls answer as on the plain page (the upstream CLI alongside)", { timeout: 240_000 }, async () => {
  const upstream = await connectUpstream(path.join(dirs.path, 'upstream-code'));
  const theirs = await runCode(upstream, '?plain');
  assert.match(theirs[0]!, /"sum":5/, theirs[0]);
  const ours = await connect(testEnv(path.join(dirs.path, 'ours-code')));
  assert.deepEqual(await runCode(ours, '?plain'), theirs, 'on the plain page ours reads as the upstream');
  assert.deepEqual(await runCode(ours, '?poisoned'), theirs, 'on the poisoned page ours answers what the upstream answers on the plain one');
});
