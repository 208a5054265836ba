import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BrowserBinary } from '../browser/binary.ts';
import { describeContextOptions, withContextOptions } from '../browser/context-options.ts';
import { launchPlan } from '../browser/launch-options.ts';
import { SessionBrowser } from '../browser/session-browser.ts';
import { PoolExhausted, type PortPool } from '../cdp/port-pool.ts';
import { SessionCdp } from '../cdp/session-cdp.ts';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import { makeDir } from '../fs/make-dir.ts';
import { instanceLaunchArgs } from '../instance/instance.ts';
import type { Logger } from '../log.ts';
import { loadedCoreBundle } from '../playwright-bundles.ts';
import { SeatsInUse } from '../browser/licence-seats.ts';
import { Activity } from './activity.ts';
import { SessionRefused } from './session-refused.ts';
import type { SessionOverrides } from './session-overrides.ts';
import { setUpSession, type SessionSetup } from './session-setup.ts';
import { TracesLink } from './traces-link.ts';

// The upstream's own rule for where a session's files go (its context.ts outputDir()).
const upstreamOutputDir = (o: { config: UpstreamConfig; cwd: string }): string =>
  (loadedCoreBundle() as { tools: { outputDir(o: { config: UpstreamConfig; cwd: string }): string } }).tools.outputDir(o);

export interface LaunchInputs {
  config: Config;
  /** Per-session choices of the client (HTTP initialize metadata or headers). */
  overrides?: SessionOverrides;
  /** The process-wide CDP port pool; undefined when no --cdp-port-range is set. */
  cdpPool?: PortPool;
  upstreamConfig: UpstreamConfig;
  binary: BrowserBinary;
  log: Logger;
  /** Stdio: the fingerprint seed Chromium was started ahead with (browser/spawn-ahead). */
  seed?: number;
  /**
   * Start the browser as soon as the session is prepared, while its client
   * finishes the handshake (under --browser-prelaunch): over stdio, and over
   * HTTP for a client's session that the warm pool could not serve.
   */
  prelaunch?: boolean;
}

/** `<replica>.<uuid>` behind a gateway (--http-replica-id), else the UUID. */
export function sessionId(config: Config, uuid: string = randomUUID()): string {
  return config.httpReplicaId ? `${config.httpReplicaId}.${uuid}` : uuid;
}

/**
 * What a session runs on: its settings, browser, profile, proxy relay, CDP
 * access and files dir. Kept apart from the MCP side (bridge-session.ts) so
 * that over stdio the browser starts before the MCP SDK is even loaded.
 */
export class SessionLaunch {
  /** `<replica>.<uuid>` behind a gateway (--http-replica-id), else a UUID. */
  readonly id: string;
  /** The process settings with this session's overrides. */
  readonly config: Config;
  readonly browser: SessionBrowser;
  #outputDir: string;
  /** HTTP: a dir of its own, removed with the session; stdio: the user's. */
  readonly ownOutputDir: boolean;
  /** Non-MCP work (CDP clients) that keeps the session from idling out. */
  readonly activity = new Activity();
  readonly inputs: LaunchInputs;
  #plan: ReturnType<typeof launchPlan>;
  #setup: SessionSetup | undefined;
  #cdp: SessionCdp | undefined;
  #preparing: Promise<void> | undefined;
  /** HTTP: the licence seat this session holds from initialize to its end, whichever browser it runs. */
  #seat: (() => void) | undefined;
  #tracesLink: TracesLink | undefined;

  get outputDir(): string {
    return this.#outputDir;
  }

  /**
   * Stdio: the workspace the upstream took from the client's roots (its first
   * tool call asks for them), and so the dir its files go to.
   */
  workspaceIs(cwd: string): void {
    if (this.ownOutputDir) return;
    this.#outputDir = upstreamOutputDir({ config: this.inputs.upstreamConfig, cwd });
    // Only the devtools capability's tools start a trace the upstream links.
    if (!this.#tracesLink || !this.inputs.upstreamConfig.capabilities?.includes('devtools')) return;
    try {
      this.#tracesLink.pointAt(path.join(this.#outputDir, 'traces'));
    } catch (error) {
      // A trace then stays in the browser's own dir, with the upstream's link to it broken; the session goes on.
      this.inputs.log.warn(`traces of this session cannot be linked into ${this.#outputDir}: ${(error as Error).message}`);
    }
  }

  constructor(inputs: LaunchInputs) {
    this.inputs = inputs;
    const uuid = randomUUID();
    this.id = sessionId(inputs.config, uuid);
    // A session's proxy replaces the process one; its context options merge over them.
    const { proxy, profile: _profile, contextOptions, ...overrides } = inputs.overrides ?? {};
    this.config = {
      ...inputs.config,
      ...overrides,
      proxyServer: proxy ?? inputs.config.proxyServer,
      contextOptions: contextOptions || inputs.config.contextOptions ? { ...inputs.config.contextOptions, ...contextOptions } : undefined,
    };
    // Over stdio files go where the upstream CLI puts them; over HTTP each session has its own dir.
    const upstreamDir = inputs.upstreamConfig.outputDir;
    this.ownOutputDir = this.config.transport !== 'stdio';
    this.#outputDir = this.ownOutputDir ? path.join(upstreamDir ?? this.config.outputDir, this.id) : upstreamOutputDir({ config: inputs.upstreamConfig, cwd: process.cwd() });
    this.#plan = launchPlan(this.config, withContextOptions(inputs.upstreamConfig, this.config.contextOptions), inputs.binary, inputs.seed);
    // Where Playwright writes traces: the dir the upstream links them in (over stdio, known at its first call).
    this.#tracesLink = this.ownOutputDir ? undefined : new TracesLink(this.id);
    this.#plan.launch.tracesDir = this.#tracesLink?.path ?? path.join(this.outputDir, 'traces');
    // The upstream does not ask a client for roots under --ignore-roots: its workspace is the working directory.
    if (inputs.upstreamConfig.ignoreRoots) this.workspaceIs(process.cwd());
    this.browser = new SessionBrowser(this.#plan, inputs.log.withTag(uuid.slice(0, 8)), {
      extraArgs: async () => [...(this.#cdp ? await this.#cdp.launchArgs() : []), ...instanceLaunchArgs()],
      claimSeat: async () => (this.#seat ? () => {} : inputs.binary.claimSeat(inputs.log)),
      onBrowserGone: () => this.#cdp?.browserGone(),
    });
  }

  /** Claims what the browser needs (seat, profile, proxy relay, CDP port); over stdio starts the browser too. Idempotent. */
  prepare(): Promise<void> {
    this.#preparing ??= this.#prepare();
    return this.#preparing;
  }

  async #prepare(): Promise<void> {
    const { binary, log } = this.inputs;
    // Over HTTP a session that would take a seat the plan does not have is refused now (503), not when its browser dies.
    if (this.config.transport === 'streamable-http')
      this.#seat = await binary.claimSeat(log).catch((error: Error) => {
        throw error instanceof SeatsInUse ? new SessionRefused(error.message, 503) : error;
      });
    try {
      if (this.ownOutputDir) await makeDir(this.outputDir);
      const overrides = this.inputs.overrides ?? {};
      this.#setup = await setUpSession({
        config: this.config,
        proxyOrigin: overrides.proxy ? 'the session field `proxy`' : 'PLAYWRIGHT_MCP_PROXY_SERVER (--proxy-server)',
        profile: overrides.profile,
        plan: this.#plan,
        binary,
        log,
      });
      this.#plan.extras = this.#setup.extras;
      // The browser starts now, while the upstream connects and the client finishes its handshake.
      if (this.inputs.prelaunch && this.config.browserPrelaunch) this.browser.prelaunch();
      if (this.config.cdpEnabled && this.#plan.attach) throw new SessionRefused('cdpEnabled gives a session a DevTools port of a browser this server launched; this server attaches to your browser (--cdp-endpoint/--endpoint), which has its own. Start the session without cdpEnabled.', 400);
      if (this.config.cdpEnabled) this.#cdp = await this.#openCdp();
    } catch (error) {
      // Nothing of a session that never started may outlive it (lock, relay, seat).
      await this.#setup?.close();
      this.#seat?.();
      throw error;
    }
  }

  /**
   * The upstream's config for this session: its files dir and, for
   * browser_get_config, the launch this session really gets (the stealth
   * switches, the executable, the viewport), not the upstream's defaults;
   * credentials in switches masked.
   */
  upstreamConfig(): UpstreamConfig {
    const base = this.inputs.upstreamConfig;
    const launch = this.#plan.launch;
    const browser = base.browser;
    return {
      ...base,
      ...(this.ownOutputDir ? { outputDir: this.outputDir } : {}),
      browser: {
        ...browser,
        launchOptions: {
          ...browser?.launchOptions,
          headless: launch.headless,
          chromiumSandbox: launch.chromiumSandbox,
          args: this.browser.profile.args,
          ...(this.inputs.binary.executablePath ? { executablePath: this.inputs.binary.executablePath } : {}),
        },
        contextOptions: { ...browser?.contextOptions, ...this.#plan.context, ...this.#plan.extras?.context },
      },
    };
  }

  /** Whether the session's browser runs on a profile in memory (the upstream's `isolated`); undefined when attached (config-view.ts). */
  get profileInMemory(): boolean | undefined {
    return this.#plan.attach ? undefined : !this.#plan.extras?.userDataDir;
  }

  get cdpInfo() {
    return this.#cdp?.info() ?? { enabled: false };
  }

  /** The session's identity (profile, proxy, location) for stealth_bridge_info; never a credential. */
  get identity() {
    return { ...this.#setup?.info, contextOptions: this.config.contextOptions ? describeContextOptions(this.config.contextOptions) : null };
  }

  async #openCdp(): Promise<SessionCdp> {
    const pool = this.inputs.cdpPool;
    if (!pool) throw new SessionRefused('This server offers no CDP access: it runs without --cdp-port-range. Start the session without cdpEnabled, or ask the operator to set a port range.', 400);
    try {
      return await SessionCdp.open({
        pool,
        advertisedHost: this.config.cdpAdvertisedHost,
        advertisedScheme: this.config.cdpAdvertisedScheme,
        ensureBrowser: async () => void (await this.browser.context()),
        activity: this.activity,
        log: this.inputs.log,
      });
    } catch (error) {
      if (error instanceof PoolExhausted) throw new SessionRefused(`${error.message}: every CDP port is leased. Retry later, or start the session without cdpEnabled.`, 503);
      throw error;
    }
  }

  /** The browser, then CDP access, then what outlives the browser (profile lock, proxy relay), then an own files dir. */
  async close(): Promise<void> {
    await this.browser.close();
    this.#seat?.();
    await this.#cdp?.close();
    await this.#setup?.close();
    // A per-session dir (HTTP) goes with its session; over stdio the dir is the user's.
    if (this.ownOutputDir && !this.config.keepArtifacts) await fs.rm(this.outputDir, { recursive: true, force: true, maxRetries: 2 }).catch(() => {});
    this.#tracesLink?.remove();
  }
}
