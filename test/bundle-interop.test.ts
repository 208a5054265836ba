import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, test } from 'node:test';
import { withKeptNamespaces } from '../src/bundle-interop.ts';

// On Node the server loads playwright-core's bundles with esbuild's `__toESM`
// keeping the namespace it made for a module (src/bundle-interop.ts). Both
// helpers, the bundle's own and ours, run here side by side on the same
// modules: an importer must see the same exports, values and `default`,
// including a module that gains exports while it is still loading.

const require = createRequire(import.meta.url);
const bundleText = (name: string) => fs.readFileSync(require.resolve(`playwright-core/lib/${name}`), 'utf8');

type ToESM = (mod: unknown, isNodeMode?: number) => Record<string, unknown>;

// The bundle's helper prelude (everything before `__toCommonJS`), evaluated alone.
function helpersOf(text: string): ToESM {
  const prelude = text.slice(0, text.indexOf('var __toCommonJS'));
  return new vm.Script(`${prelude}; __toESM`).runInThisContext() as ToESM;
}

const view = (namespace: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(namespace).sort().map((key) => [key, namespace[key]]));

describe('playwright-core bundles: import namespaces kept', () => {
  for (const name of ['coreBundle', 'utilsBundle']) {
    test(`${name}: the helper is found, and every other line stays where it was`, () => {
      const text = bundleText(name);
      const kept = withKeptNamespaces(text);
      // If this fails, the bundle's helper changed and the start pays ~40 ms of CPU again.
      assert.notEqual(kept, text);
      assert.equal(kept.split('\n').length, text.split('\n').length);
    });
  }

  test("an importer sees what the bundle's own helper gives it, and a module still loading gets its new exports", () => {
    const text = bundleText('coreBundle');
    const original = helpersOf(text);
    const ours = helpersOf(withKeptNamespaces(text));

    const path = require('node:path');
    assert.deepEqual(view(ours(path, 1)), view(original(path, 1)));
    assert.equal(ours(path, 1), ours(path, 1), 'the same module, the same namespace');
    assert.equal(ours(path, 1).default, path);

    // Compiled ESM: `default` is its own export unless the importer is in Node mode.
    const esm = Object.defineProperty({ default: 'the default export', named: 1 }, '__esModule', { value: true });
    assert.deepEqual(view(ours(esm)), view(original(esm)));
    assert.equal(ours(esm).default, 'the default export');
    assert.equal(ours(esm, 1).default, esm);
    assert.equal(ours(esm).default, 'the default export', 'Node mode kept apart');

    // A CommonJS module in a require cycle: partly loaded at the first import.
    const loading: Record<string, unknown> = { early: 1 };
    assert.deepEqual(Object.keys(ours(loading)).sort(), ['default', 'early']);
    loading.late = 2;
    assert.deepEqual(view(ours(loading)), view(original(loading)));
    assert.equal(ours(loading).late, 2);

    // Values are read live, as before.
    loading.early = 'changed';
    assert.equal(ours(loading).early, 'changed');

    for (const value of [undefined, null, 'text', 3]) assert.deepEqual(view(ours(value)), view(original(value)));
  });
});
