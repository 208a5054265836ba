import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

// The real stealth build hides the CDP console domain, so Playwright (and the
// upstream's browser_console_messages) sees no console messages. When enabled,
// an init script records console calls and page errors inside the page, and
// the upstream's Tab falls back to that record when its native list is empty.

// Per process and unguessable: page scripts cannot trivially find the record.
const STORE = `__${crypto.randomBytes(6).toString('hex')}`;

interface Recorded {
  type: string;
  text: string;
  ts: number;
  url: string;
}

function recorder(store: string): void {
  const w = window as unknown as Record<string, unknown>;
  if (w[store]) return;
  const records: Recorded[] = [];
  Object.defineProperty(window, store, { value: records, enumerable: false });
  const fmt = (v: unknown): string => {
    try {
      if (typeof v === 'string') return v;
      if (v instanceof Error) return String(v.stack || v);
      return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
    } catch {
      return String(v);
    }
  };
  const push = (type: string, text: string) => {
    records.push({ type, text, ts: Date.now(), url: location.href });
    if (records.length > 1000) records.shift();
  };
  const types: Record<string, string> = { log: 'log', info: 'info', warn: 'warning', error: 'error', debug: 'debug', trace: 'trace', dir: 'dir', table: 'table', assert: 'assert' };
  const c = console as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, type] of Object.entries(types)) {
    const original = c[method];
    if (typeof original !== 'function') continue;
    // A Proxy keeps the native function's name, length and toString.
    c[method] = new Proxy(original, {
      apply(target, self, args: unknown[]) {
        try {
          if (method !== 'assert') push(type, args.map(fmt).join(' '));
          else if (!args[0]) push(type, `Assertion failed${args.length > 1 ? `: ${args.slice(1).map(fmt).join(' ')}` : ''}`);
        } catch {
          // recording must never break the page
        }
        return Reflect.apply(target, self, args);
      },
    });
  }
  addEventListener('error', (e) => {
    if (e instanceof ErrorEvent) push('error', e.error instanceof Error ? String(e.error.stack || e.error) : e.message);
  });
  addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => push('error', `Uncaught (in promise) ${fmt(e.reason)}`));
}

const LEVELS = ['error', 'warning', 'info', 'debug'];
// The upstream's mapping of console types to levels (tab.ts).
function levelOf(type: string): string {
  if (type === 'assert' || type === 'error') return 'error';
  if (type === 'warning') return 'warning';
  if (['count', 'dir', 'dirxml', 'info', 'log', 'table', 'time', 'timeEnd'].includes(type)) return 'info';
  return 'debug';
}
const included = (threshold: string | undefined, type: string) => LEVELS.indexOf(levelOf(type)) <= LEVELS.indexOf(threshold || 'info');

interface ConsoleMessage {
  type: string;
  timestamp: number;
  text: string;
  toString(): string;
}

async function recorded(page: Page): Promise<ConsoleMessage[]> {
  const records = await page.evaluate((store) => ((window as unknown as Record<string, Recorded[]>)[store] ?? []).slice(), STORE).catch(() => [] as Recorded[]);
  return records.map((r) => ({ type: r.type, timestamp: r.ts, text: r.text, toString: () => `[${r.type.toUpperCase()}] ${r.text} @ ${r.url}` }));
}

const enabled = new WeakSet<BrowserContext>();
let patchedWith: { ignoreNative: boolean } | undefined;

interface TabLike {
  page: Page;
  consoleMessages(level?: string, all?: boolean): Promise<ConsoleMessage[]>;
  consoleMessageCount(): Promise<{ total: number; errors: number; warnings: number }>;
}

/**
 * Patches the upstream's Tab (one copy, in-process) once, on first use; the
 * patched methods change nothing for contexts that did not enable the fallback.
 * `ignoreNative` (tests only) pretends the driver sees nothing, like the real build.
 */
function patchTab(ignoreNative: boolean): void {
  if (patchedWith) return;
  patchedWith = { ignoreNative };
  const { tools } = createRequire(import.meta.url)('playwright-core/lib/coreBundle') as { tools: { Tab: { prototype: TabLike } } };
  const proto = tools.Tab.prototype;
  const nativeMessages = proto.consoleMessages;
  const nativeCount = proto.consoleMessageCount;
  const useFallback = async (tab: TabLike) => {
    if (!enabled.has(tab.page.context())) return false;
    if (patchedWith!.ignoreNative) return true;
    return (await nativeCount.call(tab)).total === 0;
  };
  proto.consoleMessages = async function (this: TabLike, level?: string, all?: boolean) {
    if (!(await useFallback(this))) return nativeMessages.call(this, level, all);
    return (await recorded(this.page)).filter((m) => included(level, m.type));
  };
  proto.consoleMessageCount = async function (this: TabLike) {
    if (!(await useFallback(this))) return nativeCount.call(this);
    const messages = await recorded(this.page);
    return {
      total: messages.length,
      errors: messages.filter((m) => levelOf(m.type) === 'error').length,
      warnings: messages.filter((m) => m.type === 'warning').length,
    };
  };
}

export async function enableConsoleFallback(context: BrowserContext, ignoreNative: boolean): Promise<void> {
  patchTab(ignoreNative);
  enabled.add(context);
  await context.addInitScript(recorder, STORE);
}
