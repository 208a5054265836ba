import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { usePageSuite } from './helpers/page-suite.ts';
import { connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A page that wraps document.getElementById reads who called it in
// `new Error().stack` (rebrowser's sourceUrlLeak probe; "UtilityScript." in a
// stack is a known Playwright check). Under the upstream, the user's code of
// browser_evaluate runs inside Playwright's UtilityScript through two evals;
// under ours its callers are <anonymous> frames only, as for code typed into
// DevTools' console, and every result reads as the upstream's.
const PAGE = `<!doctype html><title>wrapped</title><input id="name" aria-label="Name" value="Ada"><pre id="seen"></pre><script>
const seen = [];
const byId = Document.prototype.getElementById;
Document.prototype.getElementById = function (id) {
  seen.push(new Error('probe').stack.split('\\n').slice(2).map((line) => line.trim()).join(' / '));
  return byId.call(this, id);
};
setInterval(() => (document.getElementById === Document.prototype.getElementById) && (document.querySelector('#seen').textContent = 'callers: ' + seen.join(' || ')), 20);
</script>`;

const CALLS: Record<string, unknown>[] = [
  { function: "() => document.getElementById('name').value" },
  { function: "document.getElementById('name').value + '!'" },
  { function: "async () => { await new Promise((r) => setTimeout(r, 10)); return document.getElementById('name').value.length; }" },
  { function: '() => { undeclaredName = 1; return [this === window, typeof undeclaredName]; }' },
  // The upstream's eval reads this as a sequence: its last value.
  { function: '(1), (2)' },
];

const page = usePageSuite('spm-evaluate-stack-', PAGE);
const { output: dirs } = page;

type Call = (name: string, args?: Record<string, unknown>) => Promise<string>;

/** On a probe page (the first suite's by default): the results of `steps` (up to their code) and, per call the page saw, its callers. */
async function onProbePage(server: Connected, steps: (call: Call) => Promise<string[]>, suite: typeof page = page) {
  suite.servers.push(server);
  const call: Call = async (name, args = {}) => textOf(await server.client.callTool({ name, arguments: args }));
  await call('browser_navigate', { url: suite.site.url });
  const results = (await steps(call)).map((text) => text.split('### Ran')[0]);
  await call('browser_wait_for', { time: 0.2 });
  const callers = (await call('browser_snapshot')).match(/callers: ([^\n]*)/)?.[1] ?? '';
  return { results, callers: callers.replace(/"$/, '').split(' || ') };
}

const drive = (server: Connected) =>
  onProbePage(server, async (call) => {
    const ref = (await call('browser_snapshot')).match(/textbox "Name" \[ref=(\w+)\]/)?.[1];
    const results = [];
    for (const args of CALLS) results.push(await call('browser_evaluate', args));
    results.push(await call('browser_evaluate', { element: 'Name', target: ref, function: "(e) => e.id + document.getElementById('name').tagName" }));
    // An error the page's code throws reads bare, as the upstream's, named after no call of Playwright's
    // (a wrapper of ours once made it "tab._raceAgainstModalStates: Error: …"); its stack is ours to differ.
    const firstLines = (text: string) => text.split('\n').slice(0, 2).join('\n');
    results.push(firstLines(await call('browser_evaluate', { function: "() => { throw new Error('thrown by the page') }" })));
    results.push(firstLines(await call('browser_evaluate', { element: 'Name', target: ref, function: "(e) => { throw new Error('thrown at ' + e.id) }" })));
    return results;
  });

test("a page function the user's evaluate calls sees only <anonymous> callers, no Playwright names (the upstream CLI alongside, in the same run)", { timeout: 120_000 }, async (t) => {
  const theirs = await drive(await connectUpstream(path.join(dirs.path, 'upstream')));
  const mine = await drive(await connect(testEnv(path.join(dirs.path, 'ours'))));
  t.diagnostic(`upstream CLI, the callers a page saw: ${theirs.callers[0]}`);
  t.diagnostic(`ours: ${mine.callers[0]}`);
  assert.ok(theirs.callers.some((c) => /UtilityScript\./.test(c)), 'the upstream shows Playwright in the stack (the probe works)');
  assert.equal(mine.callers.length, 4, 'every call of the page function was seen');
  for (const callers of mine.callers) {
    assert.doesNotMatch(callers, /UtilityScript|eval at|evaluate|playwright|pptr/i);
    for (const frame of callers.split(' / ')) assert.match(frame, /^at (async )?<anonymous>:\d+:\d+$/);
  }
  assert.deepEqual(mine.results, theirs.results, 'the results read as the upstream\'s');
});

// browser_run_code_unsafe: the user's own page.evaluate, locator.evaluate and
// $eval run the same way: the page sees <anonymous> callers only, and the
// tool's answer is the upstream's.
const RUN_CODE = `async (page) => {
  function named(id) { return document.getElementById(id).value.toUpperCase(); }
  const shorthand = { async read() { return document.getElementById('name').value.length * 2; } };
  const declared = await page.evaluate(named, 'name');
  const method = await page.evaluate(shorthand.read);
  const inFrame = await page.mainFrame().evaluate(() => document.getElementById('name').value + '#');
  const direct = await page.evaluate(() => document.getElementById('name').value);
  const withArg = await page.evaluate(([id, suffix]) => document.getElementById(id).value + suffix, ['name', '?']);
  const asText = await page.evaluate("document.getElementById('name').value.length");
  const onElement = await page.locator('#name').evaluate((e) => e.id + document.getElementById('name').tagName);
  const viaEval = await page.$eval('#name', function (e) { return [this === window, document.getElementById(e.id).value]; });
  const asHandle = await page.evaluateHandle(() => document.getElementById('name'));
  const thrown = await page.evaluate(() => { document.getElementById('name'); throw new Error('boom'); }).catch((e) => e.message.split('\\n')[0]);
  const missing = await page.evaluate(() => typeof utilityScript + typeof isFunction + typeof arguments).catch((e) => e.message.split('\\n')[0]);
  return { direct, withArg, asText, onElement, viaEval, handle: String(asHandle), thrown, missing, declared, method, inFrame };
}`;

// The same code from a file (`filename`, which wins over `code`) in the server's output dir (an allowed root).
const driveRunCode = (server: Connected, outputDir: string) =>
  onProbePage(server, async (call) => {
    const file = path.join(outputDir, 'run-code.js');
    fs.writeFileSync(file, RUN_CODE);
    return [await call('browser_run_code_unsafe', { code: RUN_CODE }), await call('browser_run_code_unsafe', { filename: file, code: 'async () => 0' })];
  });

test("browser_run_code_unsafe: the user's page.evaluate calls show the page no Playwright names either (the upstream CLI alongside)", { timeout: 120_000 }, async (t) => {
  const theirs = await driveRunCode(await connectUpstream(path.join(dirs.path, 'upstream-run-code')), path.join(dirs.path, 'upstream-run-code'));
  const mine = await driveRunCode(await connect(testEnv(path.join(dirs.path, 'ours-run-code'))), path.join(dirs.path, 'ours-run-code'));
  t.diagnostic(`upstream CLI: ${theirs.callers.join(' || ')}`);
  t.diagnostic(`ours: ${mine.callers.join(' || ')}`);
  t.diagnostic(`result: ${mine.results[0]}`);
  assert.ok(theirs.callers.some((c) => /UtilityScript\./.test(c)), 'the upstream shows Playwright in the stack (the probe works)');
  assert.equal(mine.callers.length, theirs.callers.length, 'every call of the page function was seen');
  for (const callers of mine.callers) {
    assert.doesNotMatch(callers, /UtilityScript|eval at|evaluate|playwright|pptr/i);
    // A function of the user's code keeps its own name.
    for (const frame of callers.split(' / ')) assert.match(frame, /^at (async )?(<anonymous>|\w+ \(<anonymous>:\d+:\d+\))(:\d+:\d+)?$/);
  }
  assert.deepEqual(mine.results, theirs.results, "the tool's answer reads as the upstream's");
});

// Playwright's own code in the page: the first evaluate builds its UtilityScript
// there (Function.prototype.bind as it starts) and each result is serialized
// through its helpers (Object.keys, Array.prototype.push, Map.prototype.get…).
// A page that wraps those builtins reads their callers too: under the upstream
// "new UtilityScript", "UtilityScript.jsonValue", "innerSerialize"; under ours
// the same code with its functions' names made short, and the same results.
const BUILTINS_PAGE = `<!doctype html><title>builtins</title><pre id="seen"></pre><script>
const seen = new Set();
let busy = false;
const wrap = (owner, name) => {
  const original = owner[name];
  owner[name] = function (...args) {
    if (!busy) {
      busy = true;
      const foreign = new Error('probe').stack.split('\\n').slice(2).filter((line) => !line.includes(location.origin)).map((line) => line.trim());
      if (foreign.length) seen.add(name + ' <- ' + foreign.join(' / '));
      busy = false;
    }
    return Reflect.apply(original, this, args);
  };
};
wrap(Function.prototype, 'bind'); wrap(Function.prototype, 'call'); wrap(Object, 'keys'); wrap(Object, 'entries'); wrap(Object, 'getPrototypeOf');
wrap(Array.prototype, 'push'); wrap(Array.prototype, 'slice'); wrap(Map.prototype, 'get'); wrap(Map.prototype, 'set');
setInterval(() => (document.querySelector('#seen').textContent = 'callers: ' + [...seen].join(' || ')), 20);
</script>`;

const VALUES = [
  "() => ({ when: new Date(0), re: /a+/gi, url: new URL('http://x.test/p?q=1'), error: new Error('e'), list: [1, -0, NaN, Infinity, -Infinity, null, undefined], nested: { a: { b: [new Map([[1, 'one']]), new Set(['s'])] } } })",
  "() => { const a = { name: 'cyclic' }; a.self = a; return [a, a]; }",
  '() => new Uint8Array([1, 2, 3])',
  'async () => new Date(86400000)',
  "() => document.querySelector('#seen').tagName",
];

const builtins = usePageSuite('spm-evaluate-builtins-', BUILTINS_PAGE);

const driveBuiltins = (server: Connected) =>
  onProbePage(
    server,
    async (call) => {
      const results = [];
      for (const value of VALUES) results.push(await call('browser_evaluate', { function: value }));
      return results;
    },
    builtins,
  );

test("Playwright's code that serves an evaluate in the page shows no Playwright names to the page's wrapped builtins (the upstream CLI alongside)", { timeout: 120_000 }, async (t) => {
  const theirs = await driveBuiltins(await connectUpstream(path.join(builtins.output.path, 'upstream')));
  const mine = await driveBuiltins(await connect(testEnv(path.join(builtins.output.path, 'ours'))));
  t.diagnostic(`upstream CLI: ${theirs.callers.slice(0, 3).join(' || ')}`);
  t.diagnostic(`ours: ${mine.callers.slice(0, 3).join(' || ')}`);
  t.diagnostic(`ours, the results: ${mine.results.map((r) => r!.replace(/\s+/g, ' ').trim()).join(' | ')}`);
  const names = /UtilityScript|innerSerialize|serializeAsCallArgument|parseEvaluationResultValue|isDate|isRegExp|safeJson|__require|_promiseAwareJsonValueNoThrow/;
  assert.ok(theirs.callers.some((c) => names.test(c)), 'the upstream shows Playwright names to the wrapped builtins (the probe works)');
  assert.ok(mine.callers.some((c) => /^bind <- at new /.test(c)) && mine.callers.some((c) => /^keys <- /.test(c)), `ours runs the same code in the page: ${mine.callers.join(' || ')}`);
  for (const callers of mine.callers) assert.doesNotMatch(callers, names);
  // An Error in a result carries its stack (playwright-core 1.66): its frames are where ours differs by design.
  const frameless = (results: typeof mine.results) => results.map((r) => r?.replace(/(\n\s+at [^\n]*)+/g, '\n      at …'));
  assert.deepEqual(frameless(mine.results), frameless(theirs.results), 'the results read as the upstream\'s');
});

// What the user's code leaves behind after its call has answered (an error a
// timer of its own throws, a promise it leaves rejected) reaches the page's
// listeners as under the upstream: the error itself, not the "Script error."
// of code V8 mutes, and an `unhandledrejection` at all. The listing of the
// console names the error as the upstream's does.
const LISTENING_PAGE = `<!doctype html><title>listening</title><script>
window.seen = [];
addEventListener('error', (e) => seen.push(['error', e.message, e.lineno > 0, e.error === null ? null : String(e.error)]));
addEventListener('unhandledrejection', (e) => seen.push(['rejection', String(e.reason)]));
</script><p>listening</p>`;

const listening = usePageSuite('spm-evaluate-leftovers-', LISTENING_PAGE);

async function driveLeftovers(server: Connected): Promise<{ seen: string; console: string[] }> {
  listening.servers.push(server);
  const call: Call = async (name, args = {}) => textOf(await server.client.callTool({ name, arguments: args }));
  await call('browser_navigate', { url: listening.site.url });
  await call('browser_evaluate', { function: "() => { setTimeout(() => { throw new Error('late boom'); }, 10); return 1; }" });
  await call('browser_evaluate', { function: "() => { Promise.reject(new Error('left rejected')); return 2; }" });
  await call('browser_run_code_unsafe', { code: "async (page) => { await page.evaluate(() => { setTimeout(() => { null.x; }, 10); }); await page.waitForTimeout(100); }" });
  await call('browser_wait_for', { time: 0.3 });
  const seen = (await call('browser_evaluate', { function: '() => JSON.stringify(window.seen)' })).match(/### Result\n([^\n]*)/)?.[1] ?? '';
  const listed = await call('browser_console_messages', { level: 'debug' });
  return { seen, console: listed.split('\n').filter((line) => /^(Error|TypeError): /.test(line)) };
}

test("errors the user's evaluate leaves behind reach the page's own listeners, and the console's listing, as under the upstream CLI", { timeout: 120_000 }, async (t) => {
  const theirs = await driveLeftovers(await connectUpstream(path.join(listening.output.path, 'upstream')));
  const mine = await driveLeftovers(await connect(testEnv(path.join(listening.output.path, 'ours'))));
  t.diagnostic(`upstream CLI: ${theirs.seen}`);
  t.diagnostic(`ours: ${mine.seen}`);
  assert.match(theirs.seen, /late boom/, 'the upstream page hears the error (the probe works)');
  assert.equal(mine.seen, theirs.seen);
  assert.doesNotMatch(mine.seen, /Script error/);
  assert.deepEqual(mine.console, theirs.console);
  assert.deepEqual(mine.console, ['Error: late boom', 'Error: left rejected', "TypeError: Cannot read properties of null (reading 'x')"]);
});
