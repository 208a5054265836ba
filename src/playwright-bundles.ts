import { createRequire } from 'node:module';
import type { BrowserType } from 'playwright-core';
import { requireWithCodeCache } from './bundle-code-cache.ts';

declare const Bun: unknown;

// playwright-core: its entry and two CommonJS bundles (3.5 MB and 3 MB),
// where the browser API, the upstream's MCP server, config resolver and CLI
// parser live.
//
// Node, asked to `import` a CommonJS file, first scans all of it for named
// exports (cjs-module-lexer): ~150 ms per start over coreBundle alone, on the
// path to the first browser launch; importing the entry scans the bundle too
// (it re-exports from it). require() skips the scan. The standalone
// binary has no node_modules: Bun embeds what it sees as a literal import, and
// a require() there would evaluate a second copy (~250 ms, and a Tab class the
// upstream does not use), so the binary keeps the import.

const BUNDLES = /playwright-core[\\/]lib[\\/](coreBundle|utilsBundle)\.js$/;
const baseRequire = createRequire(import.meta.url);
const nodeRequire = (id: string) => requireWithCodeCache(baseRequire, id, BUNDLES);
let core: unknown;

export async function coreBundle(): Promise<unknown> {
  core ??= typeof Bun === 'undefined' ? nodeRequire('playwright-core/lib/coreBundle') : (await import('playwright-core/lib/coreBundle')).default;
  return core;
}

export async function chromium(): Promise<BrowserType> {
  if (typeof Bun !== 'undefined') return (await import('playwright-core')).chromium;
  return (nodeRequire('playwright-core') as { chromium: BrowserType }).chromium;
}

export async function utilsBundle(): Promise<unknown> {
  if (typeof Bun !== 'undefined') return (await import('playwright-core/lib/utilsBundle')).default;
  return nodeRequire('playwright-core/lib/utilsBundle');
}

/**
 * The same bundle, synchronously, for code that runs after startup loaded it
 * (the upstream config is resolved before any session exists).
 */
export function loadedCoreBundle(): unknown {
  if (core === undefined && typeof Bun === 'undefined') core = nodeRequire('playwright-core/lib/coreBundle');
  if (core === undefined) throw new Error('playwright-core/lib/coreBundle is used before startup loaded it (a bug: resolve the upstream config first)');
  return core;
}
