import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import coreBundle from 'playwright-core/lib/coreBundle';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { BrowserBinary } from '../browser/binary.ts';
import { launchPlan } from '../browser/launch-options.ts';
import { instanceLaunchArgs } from '../instance/instance.ts';
import { SessionBrowser } from '../browser/session-browser.ts';
import { PoolExhausted, type PortPool } from '../cdp/port-pool.ts';
import { SessionCdp } from '../cdp/session-cdp.ts';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import { describeContextOptions, withContextOptions } from '../browser/context-options.ts';
import type { Logger } from '../log.ts';
import { callDeadlineMs, forwardToolCall } from './forward-call.ts';
import { localTools } from './local-tools/index.ts';
import { jsonResult, type SessionFacts } from './local-tools/local-tool.ts';
import { isHidden, UNSAFE_CODE_TOOL, visibleUpstreamTools } from './tool-policy.ts';
import { SERVER_INFO, SERVER_OPTIONS } from './server-identity.ts';
import type { SessionOverrides } from './session-overrides.ts';
import { Activity } from './activity.ts';
import { SessionRefused } from './session-refused.ts';
import { metrics, observeToolCall } from '../metrics/metrics.ts';
import { setUpSession, type SessionSetup } from './session-setup.ts';
import type { WarmPool } from './warm-pool.ts';
import { SessionFiles } from './files/session-files.ts';
import { capResult } from './result-cap.ts';
import { SeatsInUse } from '../browser/licence-seats.ts';
import { connectUpstream } from './upstream-link.ts';
import { makeDir } from '../fs/make-dir.ts';

// The upstream's own rule for where a session's files go (its context.ts outputDir()).
const upstreamOutputDir = (coreBundle as { tools: { outputDir(o: { config: UpstreamConfig; cwd: string }): string } }).tools.outputDir;

// The upstream's own deadline for a tool call, or a Playwright timeout inside it.
const TIMED_OUT = /Timeout \d+ms exceeded/;
const CRASHED = /Target crashed/;
const CRASH_NOTE = 'Note: the renderer of this tab crashed (the page ran out of memory or crashed its process); the browser and the session go on. Navigate to load a page again.';

function withNote<R extends { content?: unknown[] }>(result: R, text: string): R {
  return { ...result, content: [...(result.content ?? []), { type: 'text' as const, text }] };
}

function textOf(result: { content?: unknown[] }): string {
  return (result.content ?? []).map((c) => ((c as { type?: string }).type === 'text' ? (c as { text: string }).text : '')).join('\n');
}

type ToolCallParams = { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } };

export interface SessionOptions {
  config: Config;
  /** Per-session choices of the client (HTTP initialize metadata or headers). */
  overrides?: SessionOverrides;
  /** The process-wide CDP port pool; undefined when no --cdp-port-range is set. */
  cdpPool?: PortPool;
  upstreamConfig: UpstreamConfig;
  binary: BrowserBinary;
  log: Logger;
  /** HTTP: the warm pool, for stealth_bridge_info. */
  pool?: WarmPool<BridgeSession>;
}

/** `<replica>.<uuid>` behind a gateway (--http-replica-id), else the UUID. */
export function sessionId(config: Config, uuid: string = randomUUID()): string {
  return config.httpReplicaId ? `${config.httpReplicaId}.${uuid}` : uuid;
}

/** A session whose browser a warm pool browser can be: the process defaults, nothing of its own. */
export function takesDefaultLaunch(config: Config, overrides: SessionOverrides = {}): boolean {
  const own = Object.values(overrides).some((value) => value !== undefined);
  return !own && !config.userDataDir && !config.extensionPaths?.length && !config.geoipProxyMatch && !config.cdpEnabled && !config.proxyServer;
}

/**
 * One MCP session: our Server in front of an in-process upstream Playwright MCP
 * server, with the browser launched and owned here.
 */
export class BridgeSession {
  /** `<replica>.<uuid>` behind a gateway (--http-replica-id), else a UUID. */
  readonly id: string;
  readonly server: Server;
  readonly browser: SessionBrowser;
  readonly outputDir: string;
  /** What the session's tools wrote, as MCP resources. */
  readonly files: SessionFiles;
  #outputBytes = 0;
  /** Non-MCP work (CDP clients) that keeps the session from idling out. */
  readonly activity = new Activity();
  #upstream: Client | undefined;
  #upstreamTools: Promise<Tool[]> | undefined;
  #upstreamToolCount: number | undefined;
  #options: SessionOptions;
  #config: Config;
  #cdp: SessionCdp | undefined;
  #closing: Promise<void> | undefined;
  #plan: ReturnType<typeof launchPlan>;
  #setup: SessionSetup | undefined;
  #ownOutputDir: boolean;
  #starting: Promise<void> | undefined;

  constructor(options: SessionOptions) {
    this.#options = options;
    const uuid = randomUUID();
    this.id = sessionId(options.config, uuid);
    // A session's proxy replaces the process one; its context options merge over them.
    const { proxy, profile: _profile, contextOptions, ...overrides } = options.overrides ?? {};
    this.#config = {
      ...options.config,
      ...overrides,
      proxyServer: proxy ?? options.config.proxyServer,
      contextOptions: contextOptions || options.config.contextOptions ? { ...options.config.contextOptions, ...contextOptions } : undefined,
    };
    // Over stdio files go where the upstream CLI puts them; over HTTP each session has its own dir.
    const upstreamDir = options.upstreamConfig.outputDir;
    this.#ownOutputDir = this.#config.transport !== 'stdio';
    this.outputDir = this.#ownOutputDir ? path.join(upstreamDir ?? this.#config.outputDir, this.id) : upstreamOutputDir({ config: options.upstreamConfig, cwd: process.cwd() });
    this.#plan = launchPlan(this.#config, withContextOptions(options.upstreamConfig, this.#config.contextOptions), options.binary);
    // Where Playwright writes traces: the dir the upstream links them in.
    this.#plan.launch.tracesDir = path.join(this.outputDir, 'traces');
    this.browser = new SessionBrowser(this.#plan, options.log.withTag(uuid.slice(0, 8)), {
      extraArgs: async () => [...(this.#cdp ? await this.#cdp.launchArgs() : []), ...instanceLaunchArgs()],
      onBrowserGone: () => this.#cdp?.browserGone(),
    });
    this.server = new Server(SERVER_INFO, SERVER_OPTIONS);
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.#listTools() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.#callTool(request.params, extra));
    this.files = new SessionFiles(this.outputDir, { readMaxBytes: this.#config.resourceMaxBytes });
    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.files.list() }));
    this.server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: [await this.files.read(request.params.uri)] }));
  }

  /** Connects the upstream; call before connecting `server` to a transport. Idempotent. */
  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  /**
   * For the warm pool: everything a client's first call would wait for, done
   * ahead: setup, the browser launched, the upstream connected and its first
   * tab open (an internal tab list; a fresh upstream session opens one).
   */
  async warmUp(): Promise<void> {
    this.browser.markWarm();
    await this.start();
    await this.browser.context();
    await this.#requireUpstream().callTool({ name: 'browser_tabs', arguments: { action: 'list' } }, undefined, { timeout: 30_000 });
  }

  get alive(): boolean {
    return this.browser.running && !this.#closing;
  }

  onGone(listener: () => void): void {
    this.browser.onGone(listener);
  }

  async #start(): Promise<void> {
    // Over HTTP a session that would take a seat the plan does not have is refused now (503), not when its browser dies.
    if (this.#config.transport === 'streamable-http')
      await this.#options.binary.checkSeat().catch((error: Error) => {
        throw error instanceof SeatsInUse ? new SessionRefused(error.message, 503) : error;
      });
    if (this.#ownOutputDir) await makeDir(this.outputDir);
    const overrides = this.#options.overrides ?? {};
    this.#setup = await setUpSession({
      config: this.#config,
      proxyOrigin: overrides.proxy ? 'the session field `proxy`' : 'PLAYWRIGHT_MCP_PROXY_SERVER (--proxy-server)',
      profile: overrides.profile,
      plan: this.#plan,
      binary: this.#options.binary,
      log: this.#options.log,
    });
    this.#plan.extras = this.#setup.extras;
    // The browser starts now, while the upstream connects and the client finishes its handshake.
    if (this.#config.transport === 'stdio' && this.#config.browserPrelaunch) this.browser.prelaunch();
    try {
      if (this.#config.cdpEnabled && this.#plan.attach) throw new SessionRefused('cdpEnabled gives a session a DevTools port of a browser this server launched; this server attaches to your browser (--cdp-endpoint/--endpoint), which has its own. Start the session without cdpEnabled.', 400);
      if (this.#config.cdpEnabled) this.#cdp = await this.#openCdp();
      const base = this.#options.upstreamConfig;
      const upstreamConfig = { ...base, ...(this.#ownOutputDir ? { outputDir: this.outputDir } : {}), browser: this.#effectiveBrowserConfig(base.browser) };
      this.#upstream = await connectUpstream(upstreamConfig, () => this.browser.context(), this.#ownOutputDir ? this.outputDir : undefined);
    } catch (error) {
      // Nothing of a session that never started may outlive it (lock, relay).
      await this.#setup.close();
      throw error;
    }
    this.#upstream.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.#upstreamTools = undefined;
      await this.server.sendToolListChanged().catch(() => {});
    });
  }

  async #listTools(): Promise<Tool[]> {
    const upstream = this.#requireUpstream();
    this.#upstreamTools ??= upstream.listTools().then(
      (r) => r.tools,
      (error: unknown) => {
        this.#upstreamTools = undefined;
        throw error;
      },
    );
    const tools = await this.#upstreamTools;
    this.#upstreamToolCount = tools.length;
    return [...visibleUpstreamTools(tools, this.#unsafeCodeAllowed), ...[...localTools.values()].map((t) => t.schema)];
  }

  async #callTool(params: ToolCallParams, extra: Parameters<typeof forwardToolCall>[2]) {
    const started = performance.now();
    try {
      const result = capResult(await this.#withFiles(await this.#dispatch(params, extra)), this.#config.maxResultChars);
      observeToolCall(this.#toolLabel(params.name, result), started, result.isError === true);
      return result;
    } catch (error) {
      observeToolCall(this.#toolLabel(params.name), started, true);
      throw error;
    }
  }

  /** Links the files a result names, announces new files, keeps the byte count. */
  async #withFiles(answer: CallToolResult): Promise<CallToolResult> {
    let result = answer;
    const notes = this.browser.takeNotes();
    if (notes.length) result = withNote(result, notes.join('\n'));
    const links = await this.files.linksIn(textOf(result), process.cwd()).catch(() => []);
    const state = await this.files.refresh(links.length > 0 || notes.length > 0).catch(() => undefined);
    if (state?.changed) {
      this.#outputBytes = state.bytes;
      await this.server.sendResourceListChanged().catch(() => {});
    }
    return links.length ? { ...result, content: [...(result.content ?? []), ...links] } : result;
  }

  // Label values must stay a small set: a name the server does not offer is `unknown`.
  #toolLabel(name: string, result?: { isError?: boolean; content?: unknown[] }): string {
    if (localTools.has(name)) return name;
    if (!/^browser_[a-z_]{1,40}$/.test(name)) return 'unknown';
    if (result?.isError && /Tool "[^"]*" not found/.test(textOf(result))) return 'unknown';
    return name;
  }

  async #dispatch(params: ToolCallParams, extra: Parameters<typeof forwardToolCall>[2]): Promise<CallToolResult> {
    const local = localTools.get(params.name);
    if (local) return jsonResult(local.run(this.#facts()));
    if (this.#ownOutputDir && this.#outputBytes > this.#config.sessionOutputMaxBytes)
      return {
        content: [{ type: 'text' as const, text: `### Error\nThis session's files take ${this.#outputBytes} bytes, more than --session-output-max-bytes (${this.#config.sessionOutputMaxBytes}): its browser tools are stopped. Read what you need with resources/read, end the session and start a new one, or ask the operator to raise the limit.` }],
        isError: true,
      };
    if (isHidden(params.name, this.#unsafeCodeAllowed))
      throw new McpError(ErrorCode.InvalidParams, `Tool ${UNSAFE_CODE_TOOL} is disabled on this server: it runs code inside the server process. The operator can enable it with --allow-unsafe-code.`);
    const wasRunning = this.browser.running;
    let result = await forwardToolCall(this.#requireUpstream(), params, extra, this.#deadline(params));
    if (result.isError && wasRunning && !this.browser.running && params.name !== 'browser_close' && !extra.signal.aborted) {
      result = await this.#retryAfterBrowserLoss(params, extra);
    }
    if (result.isError && TIMED_OUT.test(textOf(result))) result = await this.#recoverFromHang(result);
    if (result.isError && CRASHED.test(textOf(result))) result = withNote(result, CRASH_NOTE);
    // In this mode the upstream disposes its backend on browser_close but leaves
    // the browser up; closing it resets the upstream so the next call relaunches.
    if (params.name === 'browser_close') await this.browser.relaunchNext();
    return result;
  }

  /**
   * The browser died under this call (killed, OOM, crash). Playwright learns
   * of a death asynchronously, so the call that first meets a dead browser
   * cannot be told from one it died under; both are retried once on a fresh
   * browser. The disconnect already reset our launcher and the upstream's
   * backend, so the retry launches anew. A fresh browser has one blank page:
   * actions on the lost page fail there instead of repeating.
   */
  async #retryAfterBrowserLoss(params: Parameters<typeof forwardToolCall>[1], extra: Parameters<typeof forwardToolCall>[2]) {
    this.#options.log.warn(`session ${this.id}: the browser exited during ${params.name}; relaunching and retrying the call once`);
    metrics.browserRelaunches.inc();
    const retried = await forwardToolCall(this.#requireUpstream(), params, extra, this.#deadline(params));
    return withNote(retried, 'Note: the browser of this session had exited unexpectedly; it was relaunched and this call retried on a fresh browser (open pages, cookies and storage of the old one are gone).');
  }

  /**
   * What browser_get_config shows: the launch this session really gets (the
   * stealth switches, the executable, the viewport), not the upstream's
   * defaults; credentials in switches masked.
   */
  #effectiveBrowserConfig(browser: UpstreamConfig['browser']): UpstreamConfig['browser'] {
    const launch = this.#plan.launch;
    const profile = this.browser.profile;
    return {
      ...browser,
      launchOptions: {
        ...browser?.launchOptions,
        headless: launch.headless,
        chromiumSandbox: launch.chromiumSandbox,
        args: profile.args,
        ...(this.#options.binary.executablePath ? { executablePath: this.#options.binary.executablePath } : {}),
      },
      contextOptions: { ...browser?.contextOptions, ...this.#plan.context, ...this.#plan.extras?.context },
    };
  }

  #deadline(params: { name: string; arguments?: Record<string, unknown> }): number {
    return callDeadlineMs(params.name, params.arguments, this.#options.upstreamConfig.timeouts?.navigation ?? 60_000);
  }

  /**
   * A call that timed out may have met a page whose script never yields; it
   * would time out every later call too. Such pages are closed and the result
   * says so (the upstream would leave the session stuck).
   */
  async #recoverFromHang<R extends { content?: unknown[] }>(result: R): Promise<R> {
    const closed = await this.browser.closeHungPages().catch(() => []);
    if (!closed.length) return result;
    this.#options.log.warn(`session ${this.id}: closed ${closed.length} unresponsive page(s): ${closed.slice(0, 5).join(', ')}${closed.length > 5 ? ', …' : ''}`);
    const named = closed.length > 5 ? `s ${closed.slice(0, 5).join(', ')} and ${closed.length - 5} more` : ` ${closed.join(', ')}`;
    return withNote(result, `Note: the page${named} stopped responding (a script that never yields); ${closed.length > 1 ? 'they were' : 'it was'} closed so this session can go on. Navigate to continue.`);
  }

  // Over stdio the one local user started the server and may run code in it, as upstream.
  get #unsafeCodeAllowed(): boolean {
    return this.#config.allowUnsafeCode ?? this.#config.transport === 'stdio';
  }

  #facts(): SessionFacts {
    return {
      id: this.id,
      transport: this.#config.transport,
      config: this.#config,
      binary: this.#options.binary,
      outputDir: this.outputDir,
      localToolNames: [...localTools.keys()],
      upstreamToolCount: () => this.#upstreamToolCount,
      browserRunning: () => this.browser.running,
      browserProfile: () => this.browser.profile,
      cdp: () => this.#cdp?.info() ?? { enabled: false },
      pool: () => (this.#options.pool ? { ...this.#options.pool.info() } : null),
      files: () => ({ dir: this.outputDir, bytes: this.#outputBytes, maxBytes: this.#ownOutputDir ? this.#config.sessionOutputMaxBytes : null, removedAtEnd: this.#ownOutputDir && !this.#config.keepArtifacts }),
      identity: () => ({
        ...this.#setup?.info,
        contextOptions: this.#config.contextOptions ? describeContextOptions(this.#config.contextOptions) : null,
      }),
    };
  }

  #requireUpstream(): Client {
    if (!this.#upstream) throw new McpError(ErrorCode.InternalError, 'The session is not started.');
    return this.#upstream;
  }

  /** Closes the client connection, the upstream and the browser; safe to call twice. */
  async #openCdp(): Promise<SessionCdp> {
    const pool = this.#options.cdpPool;
    if (!pool) throw new SessionRefused('This server offers no CDP access: it runs without --cdp-port-range. Start the session without cdpEnabled, or ask the operator to set a port range.', 400);
    try {
      return await SessionCdp.open({
        pool,
        advertisedHost: this.#config.cdpAdvertisedHost,
        advertisedScheme: this.#config.cdpAdvertisedScheme,
        ensureBrowser: async () => void (await this.browser.context()),
        activity: this.activity,
        log: this.#options.log,
      });
    } catch (error) {
      if (error instanceof PoolExhausted) throw new SessionRefused(`${error.message}: every CDP port is leased. Retry later, or start the session without cdpEnabled.`, 503);
      throw error;
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.files.close();
      await Promise.allSettled([this.#upstream?.close(), this.server.close()]);
      await this.browser.close();
      await this.#cdp?.close();
      // After the browser: the profile lock and the proxy relay outlive it.
      await this.#setup?.close();
      // A per-session dir (HTTP) goes with its session; over stdio the dir is the user's.
      if (this.#ownOutputDir && !this.#config.keepArtifacts) await fs.rm(this.outputDir, { recursive: true, force: true, maxRetries: 2 }).catch(() => {});
    })();
    return this.#closing;
  }
}
