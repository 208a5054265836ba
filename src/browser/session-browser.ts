import type { Browser, BrowserContext } from 'playwright-core';
import type { Logger } from '../log.ts';
import { metrics } from '../metrics/metrics.ts';
import { attach, displayEndpoint, type AttachTarget } from './attach.ts';
import { NO_HUNG_PAGES, type HungPages } from './hang-recovery.ts';
import { closeUnresponsivePagesIn, currentTabIn, openContextsAsFirst, stopStuckScriptsIn } from './isolated-contexts.ts';
import { NOTHING_STOPPED, stopScriptBeforeLeaving, type StoppedScripts } from './stuck-scripts.ts';
import { leaveTab } from './leaving-tab.ts';
import { ContextGuards } from './context-guards.ts';
import { untilClosed } from './deadline.ts';
import { endBrowser } from './end-browser.ts';
import { closedTabsIn, closingPagesGone } from './closing-pages.ts';
import type { LaunchPlan } from './launch-options.ts';
import { openPageAhead } from './page-ahead.ts';
import { scriptStopsOf, setUpIsolatedContext, setUpLaunchedContext } from './launched-context.ts';
import { launchProfileInfo } from './launch-profile-info.ts';
import { takeQuietRuntime } from './quiet-runtime/spawn-hook.ts';
import { launchProfileOf, type LaunchProfile } from './spawn-ahead/prepared-start.ts';
import { spawnBrowser } from './spawn-browser.ts';
import { UserScripts } from './user-scripts.ts';
import type { QuietRuntime } from './quiet-runtime/runtime-shim.ts';
import { consoleMayHaveChanged } from './quiet-runtime/console-flush.ts';
import type { BrowserHooks } from './browser-hooks.ts';
import { LaunchTimes, type LaunchClock } from './launch-clock.ts';
import { publishForDashboard } from './dashboard-bind.ts';

/**
 * One browser process per session, launched on first use and owned here: the
 * upstream never launches or closes anything in the context-getter mode.
 */
export class SessionBrowser {
  #plan: LaunchPlan;
  #log: Logger;
  #hooks: BrowserHooks;
  #pending: Promise<BrowserContext> | undefined;
  /** The launch (or warm page opening) still running, and when the last one ended. */
  readonly #times = new LaunchTimes();
  #browser: Browser | undefined;
  /** Set for a persistent profile: closing it (not the browser) flushes cookies and storage. */
  #persistent: BrowserContext | undefined;
  #closed = false;
  #goneListeners = new Set<() => void>();
  readonly #guards: ContextGuards;
  /** Attach mode: closes what the session created and disconnects. */
  #release: (() => Promise<void>) | undefined;
  /** Launched ahead of its session (stdio handshake or the HTTP warm pool). */
  #warm = false;
  /** The upstream has asked for the context: from then on it sees every page as it opens. */
  #contextGiven = false;
  /** Whether the in-page console recorder runs (decided at launch, from the build's behaviour). */
  #consoleFallbackActive: boolean | null = null;
  /** The pipe shim keeping the current browser's pages' Runtime domain off (--quiet-runtime). */
  #quiet: QuietRuntime | undefined;
  /** Whether the current browser started on a profile Chromium made before (spawn-ahead/prepared-start.ts). */
  #launchProfile: LaunchProfile | undefined;
  readonly #userScripts = new UserScripts();
  /** The contexts the upstream opened beside the current browser's first one (browser_tabs isolatedContext). */
  #isolated: ReadonlySet<BrowserContext> = new Set();

  constructor(plan: LaunchPlan, log: Logger, hooks: BrowserHooks = {}) {
    this.#plan = plan;
    this.#log = log;
    this.#hooks = hooks;
    this.#guards = new ContextGuards({ humanize: plan.humanize, maxDownloadBytes: plan.maxDownloadBytes, maxPages: plan.maxPages, headed: plan.launch.headless === false, popupBlocker: plan.popupBlocker }, log);
  }

  /** Handed to the upstream as its context getter; concurrent calls share one launch. */
  context(): Promise<BrowserContext> {
    this.#contextGiven = true;
    return this.#ensureLaunched();
  }

  /** The warm pool's launch: the context is not handed to anyone yet. */
  launchAhead(): Promise<void> {
    return this.#ensureLaunched().then(() => undefined);
  }

  #ensureLaunched(): Promise<BrowserContext> {
    if (this.#closed) return Promise.reject(new Error('The session is closed.'));
    this.#pending ??= this.#times.track(
      this.#launch().catch((error: unknown) => {
        this.#pending = undefined;
        throw error;
      }),
    );
    return this.#pending;
  }

  /** The launch under way and when the last one ended (launch-clock.ts). */
  get launches(): LaunchClock {
    return this.#times.clock;
  }

  /** Starts the launch now; a failure is reported again by the first context() call. */
  prelaunch(): void {
    this.#warm = true;
    this.#ensureLaunched().catch((error: unknown) => this.#log.debug(`browser prelaunch failed (the first tool call will report it): ${(error as Error).message.split('\n')[0]}`));
  }

  /** Called when the current browser exits; returns an unsubscribe function. */
  onGone(listener: () => void): () => void {
    this.#goneListeners.add(listener);
    return () => this.#goneListeners.delete(listener);
  }

  get plan(): LaunchPlan {
    return this.#plan;
  }

  /**
   * A browser launched ahead for the warm pool opens its first page when a
   * client takes it, hidden from the upstream as at a prelaunch. Only before
   * the upstream has asked for the context: later it opens its own pages.
   * Resolves when the page is open or could not be (never rejects).
   */
  openFirstPageNow(): Promise<void> {
    const pending = this.#pending;
    if (!pending || this.#contextGiven) return Promise.resolve();
    this.#warm = true;
    this.#pending = this.#times.track(
      pending.then(async (context) => {
        await openPageAhead(context);
        // A browser that died meanwhile: the upstream, handed its context after
        // the close event, would never hear of it. It gets a fresh launch instead.
        return this.running ? context : this.#ensureLaunched();
      }),
    );
    return this.#pending.then(
      () => {},
      () => {},
    );
  }

  get running(): boolean {
    return this.#browser?.isConnected() ?? false;
  }

  /** A tool call that may make pages log starts (console-flush.ts). */
  actionStarts(): void {
    if (this.#quiet) consoleMayHaveChanged(this.#quiet);
  }

  /** An input tool starts: a passkey request goes to no dialog until the returned function is called (passkey-guard.ts). Attached browsers are the user's. */
  inputStarts(): Promise<() => void> {
    const passkeys = this.#guards.passkeys;
    return this.running && passkeys ? passkeys.inputStarts() : Promise.resolve(() => {});
  }

  /** Any other tool starts: the passkey environment of an input tool before it goes. */
  async otherStarts(): Promise<void> {
    if (this.running) await this.#guards.passkeys?.otherStarts();
  }

  /**
   * A tool runs script the user wrote: evaluations keep their user gesture until the returned function is called (its browser may launch meanwhile).
   * source: the code it runs, when the call carries it (browser_run_code_unsafe).
   */
  userScriptStarts(source?: string): () => void {
    return this.#userScripts.start(source);
  }

  /** The launch profile this session's browsers get, for stealth_bridge_info. */
  get profile() {
    return launchProfileInfo(this.#plan, { consoleFallbackActive: this.#consoleFallbackActive, quiet: this.#quiet?.counters, prelaunched: this.#warm, profile: this.#launchProfile });
  }

  async #attach(target: AttachTarget): Promise<BrowserContext> {
    if (!this.#plan.consoleCapture) this.#log.warn('--console-capture=false does not apply to an attached browser: Playwright reads its console as it does everywhere (the quiet runtime needs a browser this server launches)');
    const attached = await attach(target, { ...this.#plan.context, ...this.#plan.extras?.context });
    if (this.#closed) {
      await attached.release();
      throw new Error('The session is closed.');
    }
    this.#browser = attached.browser;
    this.#release = attached.release;
    attached.browser.on('disconnected', () => {
      for (const listener of this.#goneListeners) listener();
      if (this.#browser === attached.browser) {
        this.#browser = undefined;
        this.#pending = undefined;
        this.#release = undefined;
      }
    });
    this.#guards.guardAttached(attached.context);
    this.#log.info(`attached to ${target.kind === 'cdp' ? 'CDP' : 'Playwright server'} endpoint ${displayEndpoint(target.endpoint)} (${target.ownContext ? 'a context of its own' : "the browser's own context"})`);
    return attached.context;
  }

  async #launch(): Promise<BrowserContext> {
    if (this.#plan.attach) return this.#attach(this.#plan.attach);
    const started = performance.now();
    const { browser, persistent, executablePath, quiet, contextOptions, releaseSeat } = await spawnBrowser(this.#plan, this.#hooks, this.#log, () => this.#closed);
    this.#persistent = persistent;
    this.#browser = browser;
    metrics.browserLaunches.inc();
    browser.on('disconnected', () => {
      releaseSeat();
      this.#hooks.onBrowserGone?.();
      for (const listener of this.#goneListeners) listener();
      // Still the current browser: nobody of ours asked it to close.
      if (this.#browser === browser) {
        if (!this.#closed) metrics.browserCrashes.inc();
        this.#browser = undefined;
        this.#persistent = undefined;
        this.#pending = undefined;
      }
    });
    if (this.#closed) {
      await (persistent ?? browser).close();
      throw new Error('The session is closed.');
    }
    // The session may close meanwhile: its browser goes, and the call may never be answered.
    const context = persistent ?? (await untilClosed(browser.newContext(contextOptions), browser, 'disconnected'));
    if (!context) throw new Error(this.#closed ? 'The session is closed.' : 'The browser exited while its first context was being created.');
    this.#quiet = quiet ? takeQuietRuntime(quiet.token) : undefined;
    this.#launchProfile = quiet ? launchProfileOf(quiet.token) : undefined;
    const setUp = { browser, context, executablePath, quiet: this.#quiet, quietConsole: quiet?.console ?? false };
    const session = { plan: this.#plan, guards: this.#guards, userScripts: this.#userScripts, log: this.#log };
    this.#consoleFallbackActive = (await setUpLaunchedContext(setUp, session)) ?? this.#consoleFallbackActive;
    this.#isolated = openContextsAsFirst(browser, contextOptions, (isolated) => setUpIsolatedContext(context, isolated, setUp, session));
    // Before the upstream gets the context, so it never sees that page before asking for one.
    if (this.#warm) await openPageAhead(context);
    this.#log.debug(`browser ${browser.version()} launched in ${Math.round(performance.now() - started)} ms`);
    return context;
  }

  /** Lets the guards' work under way end first (at most 1 s): a cancelled print dialog. */
  async notesSettled(): Promise<void> {
    await this.#guards.settled();
  }

  /** What the browser's guards did since the last call (downloads cancelled, tabs closed); then forgotten. */
  takeNotes(): string[] {
    return this.#guards.takeNotes();
  }

  /** Closes pages whose renderer hangs (no answer within probeMs) and names pages no snapshot can settle on. Nothing when no browser runs. */
  async closeHungPages(probeMs: number, options: { cancelled?: AbortSignal; trustRecent?: boolean } = {}): Promise<HungPages> {
    const contexts = await this.#runningContexts();
    return contexts.length ? closeUnresponsivePagesIn(contexts, { probeMs, stops: scriptStopsOf(this.#quiet), ...options }) : NO_HUNG_PAGES;
  }

  /** Stops the script of out-of-process frames and background tabs that never yield (stuck-scripts.ts). Needs the quiet runtime's sessions. */
  async stopStuckScripts(): Promise<StoppedScripts> {
    const contexts = await this.#runningContexts();
    const stops = scriptStopsOf(this.#quiet);
    return contexts.length && stops ? stopStuckScriptsIn(contexts, stops) : NOTHING_STOPPED;
  }

  /** A navigation starts: the current tab's stuck script is stopped now (`stopped`: its URL) or by a check until `ends` (leaving-tab.ts). No tab before the upstream holds the context: no launch waited for. */
  async navigationStarts(): Promise<{ ends: () => void; stopped?: string }> {
    const page = this.#contextGiven ? currentTabIn(await this.#runningContexts()) : undefined;
    const stops = scriptStopsOf(this.#quiet);
    if (!page || !stops) return { ends: () => {} };
    const stopped = await stopScriptBeforeLeaving(page.context(), page, stops).catch(() => undefined);
    return { ends: leaveTab(page.context(), page), stopped };
  }

  /** Publishes the running browser for the Playwright Dashboard (browser_annotate); nothing when none runs. */
  async publishForDashboard(title: string): Promise<void> {
    const browser = this.running ? this.#browser : undefined;
    if (browser) await publishForDashboard(browser, title);
  }

  /** The context of the browser running now, if one runs. */
  async runningContext(): Promise<BrowserContext | undefined> {
    return this.running ? this.#pending?.catch(() => undefined) : undefined;
  }

  /** The context of the upstream's current tab (an isolated one, or the first), if a browser runs. */
  async currentContext(): Promise<BrowserContext | undefined> {
    const contexts = await this.#runningContexts();
    return currentTabIn(contexts)?.context() ?? contexts[0];
  }

  /** The running browser's first context, then those opened beside it. */
  async #runningContexts(): Promise<BrowserContext[]> {
    const first = await this.runningContext();
    return first ? [first, ...this.#isolated] : [];
  }

  /** A mark to hand to `closingPagesGone`: how many tabs this session asked to close have gone so far. */
  get closedTabs(): number {
    return closedTabsIn(this.#browser);
  }

  /** Whether a call that met a closed tab can run again (closing-pages.ts). */
  async closingPagesGone(ms: number, sinceMark: number): Promise<boolean> {
    return closingPagesGone(await this.#runningContexts(), this.closedTabs, sinceMark, ms);
  }

  /** Ends the current browser; the next `context()` launches a fresh one. */
  async relaunchNext(): Promise<void> {
    const ending = { browser: this.#browser, persistent: this.#persistent, release: this.#release };
    this.#browser = undefined;
    this.#persistent = undefined;
    this.#pending = undefined;
    this.#release = undefined;
    await endBrowser(ending);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#pending;
    await this.relaunchNext();
    // A launch still in flight closes itself when it sees #closed.
    await pending?.catch(() => {});
  }
}
