import crypto from 'node:crypto';
import * as v from 'valibot';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { untilClosed, withDeadline } from './deadline.ts';
import { pageSessions } from './page-sessions.ts';
import { rememberedFact } from './executable-facts.ts';
import { readTestOverrides } from './build-store/test-overrides.ts';
import { upstreamTabPrototype } from './upstream-tabs.ts';
import type { Logger } from '../log.ts';

// The real stealth build hides the CDP console domain, so Playwright (and the
// upstream's browser_console_messages) sees no console messages. When the
// build in use really hides them (probed once per executable), an init script
// records console calls and page errors inside the page, and the upstream's
// Tab falls back to that record when its native list is empty.

// Per process and unguessable: page scripts cannot trivially find the record.
const STORE = `__${crypto.randomBytes(6).toString('hex')}`;
// Our reads of the record never wait on the page for longer than this: a page
// may be busy, or blocked behind a dialog.
const READ_DEADLINE_MS = 1000;

interface Recorded {
  type: string;
  text: string;
  ts: number;
  url: string;
}

// Runs in the page. It must read nothing the page can observe: no property of
// a logged argument (a getter on an Error's `stack` is a known automation
// probe), no toString/JSON of page objects. Primitives are recorded as text;
// objects by their kind only. Every built-in it calls is taken before the
// page's scripts run (a page may replace Array.prototype.push, String or
// Date.now to watch what calls them), and the record is read through a
// function of its own, not by the page's Array.prototype.slice.
// What a page can still see (docs/stealth-build.md): the wrapped console
// methods (a Proxy's toString has no name) and one non-enumerable global.
function recorder(store: string): void {
  const w = window as unknown as Record<string, unknown>;
  if (w[store]) return;
  const apply = Reflect.apply;
  const { push: arrayPush, shift: arrayShift, slice: arraySlice, map: arrayMap, join: arrayJoin } = Array.prototype;
  const now = Date.now;
  const toText = String;
  const getter = (proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.get!;
  const hasInstance = Function.prototype[Symbol.hasInstance];
  const ErrorEventClass = ErrorEvent;
  const isErrorEvent = (e: Event) => apply(hasInstance, ErrorEventClass, [e]) as boolean;
  const messageOf = getter(ErrorEvent.prototype, 'message');
  const reasonOf = getter(PromiseRejectionEvent.prototype, 'reason');
  const records: Recorded[] = [];
  Object.defineProperty(window, store, { value: () => apply(arraySlice, records, []) as Recorded[], enumerable: false });
  const href = location.href;
  const fmt = (v: unknown): string => {
    const kind = typeof v;
    if (kind === 'string') return v as string;
    if (kind === 'number' || kind === 'boolean' || kind === 'bigint' || kind === 'undefined') return toText(v);
    if (v === null) return 'null';
    if (kind === 'symbol') return 'Symbol()';
    return kind === 'function' ? '[function]' : '[object]';
  };
  const text = (args: unknown[]) => apply(arrayJoin, apply(arrayMap, args, [fmt]), [' ']) as string;
  const push = (type: string, message: string) => {
    apply(arrayPush, records, [{ type, text: message, ts: now(), url: href }]);
    if (records.length > 1000) apply(arrayShift, records, []);
  };
  const types: Record<string, string> = { log: 'log', info: 'info', warn: 'warning', error: 'error', debug: 'debug', trace: 'trace', dir: 'dir', table: 'table', assert: 'assert' };
  const c = console as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, type] of Object.entries(types)) {
    const original = c[method];
    if (typeof original !== 'function') continue;
    c[method] = new Proxy(original, {
      apply(target, self, args: unknown[]) {
        try {
          if (method !== 'assert') push(type, text(args));
          else if (!args[0]) push(type, `Assertion failed${args.length > 1 ? `: ${text(apply(arraySlice, args, [1]) as unknown[])}` : ''}`);
        } catch {
          // recording must never break the page
        }
        return apply(target, self, args);
      },
    });
  }
  // ErrorEvent.message is the browser's own string, not a page object's property.
  addEventListener('error', (e) => {
    if (isErrorEvent(e)) push('error', apply(messageOf, e, []) as string);
  });
  addEventListener('unhandledrejection', (e) => push('error', `Uncaught (in promise) ${fmt(apply(reasonOf, e, []))}`));
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

interface TabLike {
  page: Page;
  modalStates(): unknown[];
  consoleMessages(level?: string, all?: boolean): Promise<ConsoleMessage[]>;
  consoleMessageCount(): Promise<{ total: number; errors: number; warnings: number }>;
}

// The last record read from each page: the answer while a dialog is open or
// the page does not answer in time.
const lastRead = new WeakMap<Page, Recorded[]>();
// The record is read with a bare Runtime.evaluate on a DevTools session of our
// own: Playwright's page.evaluate goes through its utility script in the
// page's world, which calls the page's Array.prototype.push and slice (a page
// spying on them saw a burst of calls at every tool result). The expression
// calls only the recorder's own function, and V8 copies the answer out itself.
const sessionOf = pageSessions(READ_DEADLINE_MS);
const READ_EXPRESSION = `window[${JSON.stringify(STORE)}]?.() ?? []`;

async function readRecord(page: Page): Promise<Recorded[] | undefined> {
  const session = await sessionOf(page);
  if (!session) return undefined;
  const answer = (await session.send('Runtime.evaluate', { expression: READ_EXPRESSION, returnByValue: true, silent: true })) as { result: { value?: unknown }; exceptionDetails?: unknown };
  return answer.exceptionDetails || !Array.isArray(answer.result.value) ? undefined : (answer.result.value as Recorded[]);
}

async function recorded(tab: TabLike): Promise<ConsoleMessage[]> {
  const page = tab.page;
  let records = lastRead.get(page) ?? [];
  // An evaluation waits behind an open alert/confirm/prompt; never start one then.
  if (!tab.modalStates().length && !page.isClosed()) {
    const read = readRecord(page).catch(() => undefined);
    const fresh = await withDeadline(read, READ_DEADLINE_MS);
    if (fresh) {
      records = fresh;
      lastRead.set(page, fresh);
    }
  }
  return records.map((r) => ({ type: r.type, timestamp: r.ts, text: r.text, toString: () => `[${r.type.toUpperCase()}] ${r.text} @ ${r.url}` }));
}

const enabled = new WeakSet<BrowserContext>();
let patchedWith: { ignoreNative: boolean } | undefined;

/**
 * Patches the upstream's Tab (one copy, in-process) once, on first use; the
 * patched methods change nothing for contexts that did not enable the fallback.
 * `ignoreNative` (tests only) pretends the driver sees nothing, like the real build.
 */
function patchTab(ignoreNative: boolean): void {
  if (patchedWith) return;
  patchedWith = { ignoreNative };
  const proto = upstreamTabPrototype<TabLike>();
  const nativeMessages = proto.consoleMessages;
  const nativeCount = proto.consoleMessageCount;
  const useFallback = async (tab: TabLike) => {
    if (!enabled.has(tab.page.context())) return false;
    if (patchedWith!.ignoreNative) return true;
    return (await nativeCount.call(tab)).total === 0;
  };
  proto.consoleMessages = async function (this: TabLike, level?: string, all?: boolean) {
    if (!(await useFallback(this))) return nativeMessages.call(this, level, all);
    return (await recorded(this)).filter((m) => included(level, m.type));
  };
  proto.consoleMessageCount = async function (this: TabLike) {
    if (!(await useFallback(this))) return nativeCount.call(this);
    const messages = await recorded(this);
    return {
      total: messages.length,
      errors: messages.filter((m) => levelOf(m.type) === 'error').length,
      warnings: messages.filter((m) => m.type === 'warning').length,
    };
  };
}

// Whether the driver hears console messages of this executable: asked once
// per executable.
const driverHearsConsole = new Map<string, Promise<boolean>>();
const PROBE_DEADLINE_MS = 1000;

/** The answer is kept on disk per executable (see executable-facts.ts): only the first process pays for the probe (~0.2 s). */
export function consoleReachesDriver(browser: Browser, executablePath: string, cacheDir?: string, flush?: () => Promise<void>): Promise<boolean> {
  let pending = driverHearsConsole.get(executablePath);
  if (!pending) {
    pending = rememberedFact(cacheDir, executablePath, 'driverHearsConsole', v.boolean(), () => probe(browser, flush));
    // A probe that could not run says nothing: assume the build hides them (the safe side for the tool),
    // and probe again at the next launch.
    pending = pending.catch(() => {
      driverHearsConsole.delete(executablePath);
      return false;
    });
    driverHearsConsole.set(executablePath, pending);
  }
  return pending;
}


// In a throwaway context: no page of the session ever sees it.
async function probe(browser: Browser, flush?: () => Promise<void>): Promise<boolean> {
  const context = await browser.newContext();
  try {
    // The session may end meanwhile: no answer then, and nothing remembered.
    const page = await untilClosed(context.newPage(), context);
    if (!page) throw new Error('the browser closed during the probe');
    const heard = page.waitForEvent('console', { timeout: PROBE_DEADLINE_MS }).then(
      () => true,
      () => false,
    );
    await page.evaluate(() => console.log('stealth-playwright-mcp console probe'));
    // With --quiet-runtime, a stored message reaches the driver at the shim's next sync.
    if (flush) await withDeadline(flush(), PROBE_DEADLINE_MS);
    return await heard;
  } finally {
    await context.close().catch(() => {});
  }
}

/** Whether this context's console reads go to the in-page recorder (page script, so answers from the browser). */
export const consoleFallbackOn = (context: BrowserContext): boolean => enabled.has(context);

export async function enableConsoleFallback(context: BrowserContext, ignoreNative: boolean): Promise<void> {
  patchTab(ignoreNative);
  await recordIn(context);
}

async function recordIn(context: BrowserContext): Promise<void> {
  enabled.add(context);
  await context.addInitScript(recorder, STORE);
}

/** A context opened beside `first` (browser_tabs isolatedContext) records as `first` does. */
export async function followConsoleFallback(first: BrowserContext, next: BrowserContext): Promise<void> {
  if (enabled.has(first)) await recordIn(next);
}

/**
 * Installs the recorder where it is needed: only a build that hides console
 * messages from the driver needs it; on any other it would be an in-page
 * trace for nothing. True when it runs.
 */
export async function setUpConsoleFallback(browser: Browser, context: BrowserContext, o: { executablePath: string; cacheDir?: string; flush?: () => Promise<void>; log: Logger }): Promise<boolean> {
  const forced = readTestOverrides(process.env, o.log).consoleFallbackOnly;
  const needed = forced || !(await consoleReachesDriver(browser, o.executablePath, o.cacheDir, o.flush));
  if (needed) await enableConsoleFallback(context, forced);
  else o.log.debug("console fallback not needed: the driver hears this build's console messages");
  return needed;
}
