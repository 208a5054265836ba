import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';

// Some of what the server does hooks names playwright-core does not export as
// API: the upstream's Tab reads (console flush and fallback), its running-tool
// field, the server Page's console list (message order), the scope races of
// its client (lazy stacks), a frame's load states (the hang check). A rename
// in a new @playwright/mcp would not fail a launch: each hook would quietly
// do nothing, and what it fixes would come back only now and then (a console
// count one short of its list, a huge page closed as stuck). So each name is
// checked here against the installed bundle, with the file that relies on it.

const require = createRequire(import.meta.url);
const bundlePath = require.resolve('playwright-core/lib/coreBundle');
const source = fs.readFileSync(bundlePath, 'utf8');
const bundle = require('playwright-core/lib/coreBundle') as {
  tools: { Tab: { prototype: Record<string, unknown>; forPage: unknown }; outputDir: unknown };
  server: { Page: { prototype: Record<string, unknown> } };
  iso: { LongStandingScope: new () => Record<string, unknown>; ManualPromise: unknown; InvalidSelectorError: unknown };
  utils: { coreDir: unknown };
};

// Not assert.match: a failure would print the whole 3.5 MB bundle.
const inSource = (pattern: RegExp, user: string) => assert.ok(pattern.test(source), `not in playwright-core ${bundlePath}: ${pattern}; ${user}`);
const isFunction = (value: unknown, what: string, user: string) => assert.equal(typeof value, 'function', `${what} is gone from playwright-core ${bundlePath}: ${user} relies on it`);

describe('the upstream internals the server hooks are where it expects them', () => {
  test('the Tab reads the console flush and fallback wrap, and the tab lookup', () => {
    for (const name of ['captureSnapshot', 'consoleMessages', 'consoleMessageCount', 'headerSnapshot', 'modalStates'])
      isFunction(bundle.tools.Tab.prototype[name], `Tab.prototype.${name}`, 'src/browser/quiet-runtime/console-flush.ts, src/browser/console-fallback.ts');
    isFunction(bundle.tools.Tab.forPage, 'Tab.forPage', 'src/browser/upstream-tabs.ts');
  });

  test("the console counts are read by a result's header and by browser_console_messages alone", () => {
    const reads = source.match(/\.consoleMessageCount\(/g) ?? [];
    assert.equal(reads.length, 2, `playwright-core ${bundlePath} reads the console counts in ${reads.length} places; src/browser/quiet-runtime/console-flush.ts takes any read outside headerSnapshot for browser_console_messages' own`);
    inSource(/async headerSnapshot\(\) \{[\s\S]{0,400}?this\.consoleMessageCount\(\)/, 'src/browser/quiet-runtime/console-flush.ts marks the header read');
  });

  test("the server Page keeps its console list in _consoleMessages, filled by addConsoleMessage", () => {
    isFunction(bundle.server.Page.prototype.addConsoleMessage, 'server Page.prototype.addConsoleMessage', 'src/browser/quiet-runtime/console-order.ts');
    inSource(/addConsoleMessage\([^)]*\) \{[\s\S]{0,400}?this\._consoleMessages\.push\(message\)/, 'src/browser/quiet-runtime/console-order.ts reorders this._consoleMessages after addConsoleMessage');
  });

  test('a scope race keeps its promises and errors in the fields lazy-race-stack.ts replaces', () => {
    const scope = new bundle.iso.LongStandingScope();
    isFunction(scope._race, 'LongStandingScope.prototype._race', 'src/browser/lazy-race-stack.ts');
    isFunction(scope.close, 'LongStandingScope.prototype.close', 'src/browser/lazy-race-stack.ts');
    assert.ok(scope._terminatePromises instanceof Map, 'src/browser/lazy-race-stack.ts fills LongStandingScope._terminatePromises');
    assert.equal(scope._isClosed, false, 'src/browser/lazy-race-stack.ts sets LongStandingScope._isClosed');
    for (const field of ['_closeError', '_terminateError']) inSource(new RegExp(`this\\.${field} = `), `src/browser/lazy-race-stack.ts reads LongStandingScope.${field}`);
    isFunction(bundle.iso.ManualPromise, 'iso.ManualPromise', 'src/browser/lazy-race-stack.ts');
  });

  test("a client frame's load states, and the helpers the session and errors use", () => {
    inSource(/this\._loadStates = new Set\(/, "src/browser/hang-recovery.ts reads a frame's _loadStates to tell a page still loading");
    isFunction(bundle.tools.outputDir, 'tools.outputDir', 'src/session/session-launch.ts');
    isFunction(bundle.utils.coreDir, 'utils.coreDir', 'src/browser/upstream-call.ts');
    isFunction(bundle.iso.InvalidSelectorError, 'iso.InvalidSelectorError', 'src/browser/churning-frames.ts');
  });
});
