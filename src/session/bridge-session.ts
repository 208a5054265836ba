import type { CallToolResult, ListRootsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  Server,
  ToolListChangedNotificationSchema,
  type Client,
} from '../mcp-sdk.ts';
import { callEnded, callStarted } from '../idle-gc.ts';
import { CallsInFlight } from './calls-in-flight.ts';
import { IdleBrowserClose } from './idle-browser-close.ts';
import type { SessionBrowser } from '../browser/session-browser.ts';
import type { Config } from '../config/settings.ts';
import { localTools } from './local-tools/index.ts';
import { toolLabel } from './tool-label.ts';
import { jsonResult, type SessionFacts } from './local-tools/local-tool.ts';
import { refusal, unsafeCodeAllowed, visibleUpstreamTools } from './tool-policy.ts';
import { SERVER_INFO, SERVER_OPTIONS } from './server-identity.ts';
import type { Activity } from './activity.ts';
import { observeToolCall } from '../metrics/metrics.ts';
import { SessionLaunch, sessionId, type LaunchInputs } from './session-launch.ts';
import type { SharedLaunch } from './shared-launch.ts';
import type { WarmPool } from './warm-pool.ts';
import { SessionFiles } from './files/session-files.ts';
import { withNotesAndFiles } from './files/result-files.ts';
import { capResult } from './result-cap.ts';
import { resultRedaction } from './result-redact.ts';
import { withIsolatedAsRun } from './config-view.ts';
import { connectUpstream, firstRootPath } from './upstream-link.ts';
import { HangWatch } from './hang-watch.ts';
import { textOf } from './result-notes.ts';
import { ANNOTATE_TOOL, beforeAnnotate } from './annotate-call.ts';
import { guardedCall, type CallExtra, type GuardedCallSession, type ToolCallParams } from './guarded-call.ts';

export interface SessionOptions extends LaunchInputs {
  /** HTTP: the warm pool, for stealth_bridge_info. */
  pool?: WarmPool<BridgeSession>;
  /** Stdio: the launch started before the MCP side was loaded. */
  launch?: SessionLaunch;
  /** HTTP under --shared-browser-context: the launch every session works in. */
  shared?: SharedLaunch;
}

/**
 * One MCP session: our Server in front of an in-process upstream Playwright MCP
 * server, with the browser launched and owned here.
 */
export class BridgeSession {
  readonly server: Server;
  /** What the session's tools wrote, as MCP resources. */
  readonly files: SessionFiles;
  #outputBytes = 0;
  #upstream: Client | undefined;
  #upstreamTools: Promise<Tool[]> | undefined;
  #upstreamToolCount: number | undefined;
  #options: SessionOptions;
  #launch: SessionLaunch;
  #id: string;
  #launchClosed: Promise<void> | undefined;
  #config: Config;
  #closing: Promise<void> | undefined;
  #starting: Promise<void> | undefined;
  #hangs: HangWatch;
  /** --secrets and --redact-url-params over the whole result, our notes included (result-redact.ts). */
  #redact: ReturnType<typeof resultRedaction>;
  #calls = new CallsInFlight();
  #idleClose: IdleBrowserClose;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#launch = options.launch ?? options.shared?.acquire(options.overrides ?? {}) ?? new SessionLaunch(options);
    // Sessions that share a launch each have an id of their own.
    this.#id = options.shared ? sessionId(options.config) : this.#launch.id;
    this.#config = this.#launch.config;
    this.#hangs = new HangWatch(this.browser, options.log, this.id);
    this.#redact = resultRedaction(options.upstreamConfig);
    // A shared browser is the other clients' too: it closes with the last session, not on one's idling.
    this.#idleClose = new IdleBrowserClose(options.shared ? undefined : options.upstreamConfig.timeouts?.idle, () => this.#closeIdleBrowser());
    this.server = new Server(SERVER_INFO, SERVER_OPTIONS);
    this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.#listTools() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.#callTool(request.params, extra));
    // A shared directory's older files are not this session's (a second of slack for coarse file times).
    this.files = new SessionFiles(this.outputDir, { readMaxBytes: this.#config.resourceMaxBytes, since: this.#ownOutputDir && !options.shared ? undefined : Date.now() - 1000 });
    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.files.list() }));
    this.server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: [await this.files.read(request.params.uri)] }));
    // Part of the resources capability: clients that see it ask for templates too (the MCP Inspector, on connect). A session's files are listed, not templated.
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  }

  /** `<replica>.<uuid>` behind a gateway (--http-replica-id), else a UUID. */
  get id(): string {
    return this.#id;
  }

  get browser(): SessionBrowser {
    return this.#launch.browser;
  }

  get outputDir(): string {
    return this.#launch.outputDir;
  }

  /** Non-MCP work (CDP clients) that keeps the session from idling out. */
  get activity(): Activity {
    return this.#launch.activity;
  }

  get #ownOutputDir(): boolean {
    return this.#launch.ownOutputDir;
  }

  /** Connects the upstream; call before connecting `server` to a transport. Idempotent. */
  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  /**
   * For the warm pool: what a client's first call would wait for, done ahead:
   * setup, the browser launched and the upstream connected. The first page
   * opens when a client takes the session (`taken`): idle in the pool, a page
   * would hold ~45 MB (its renderer and Chromium's spare one) for nobody.
   */
  async warmUp(): Promise<void> {
    await this.start();
    await this.browser.launchAhead();
  }

  /**
   * A client took this pooled session: its first page opens now, during the
   * client's handshake. Resolves once that page is open and no call of the
   * client's is running: the moment the pool's refill no longer competes with it.
   */
  async taken(): Promise<void> {
    await this.browser.openFirstPageNow();
    await this.#calls.idle();
  }

  get alive(): boolean {
    return this.browser.running && !this.#closing;
  }

  onGone(listener: () => void): void {
    this.browser.onGone(listener);
  }

  async #start(): Promise<void> {
    try {
      await this.#options.shared?.settled();
      await this.#launch.prepare();
      this.#upstream = await connectUpstream(this.#launch.upstreamConfig(), () => this.browser.context(), this.#ownOutputDir ? { dir: this.outputDir } : { ask: () => this.#clientRoots() });
    } catch (error) {
      // Nothing of a session that never started may outlive it (browser, lock, relay).
      await this.#closeLaunch();
      throw error;
    }
    this.#upstream.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.#upstreamTools = undefined;
      await this.server.sendToolListChanged().catch(() => {});
    });
  }

  /**
   * Stdio: the client's roots, for the upstream (a client without roots gets
   * the upstream's answer to one: the working directory); the session's files
   * follow the workspace the upstream takes from them.
   */
  async #clientRoots(): Promise<ListRootsResult> {
    let result: ListRootsResult = { roots: [] };
    try {
      if (this.server.getClientCapabilities()?.roots) result = await this.server.listRoots();
      return result;
    } finally {
      // A client that fails to answer leaves the upstream the working directory, as it would the upstream CLI.
      this.#launch.workspaceIs(firstRootPath(result.roots));
      this.files.moveTo(this.outputDir);
    }
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
    return [...visibleUpstreamTools(tools, unsafeCodeAllowed(this.#config)), ...[...localTools.values()].map((t) => t.schema)];
  }

  async #callTool(params: ToolCallParams, extra: CallExtra) {
    const started = performance.now();
    callStarted();
    this.#calls.started();
    try {
      await this.#idleClose.callStarts();
      const forwarded = await this.#dispatch(params, extra);
      const answered = await this.#withFiles(params.name === 'browser_get_config' ? withIsolatedAsRun(forwarded, this.#launch.profileInMemory) : forwarded);
      const result = capResult(this.#redact ? this.#redact(answered) : answered, this.#config.maxResultChars);
      observeToolCall(toolLabel(params.name, result.isError ? textOf(result) : undefined), started, result.isError === true);
      return result;
    } catch (error) {
      observeToolCall(toolLabel(params.name), started, true);
      throw error;
    } finally {
      callEnded();
      this.#calls.ended();
      this.#idleClose.callEnded(this.#calls.running);
    }
  }

  /** As the client's browser_close would: the upstream lets go of its tabs, the next call launches anew. */
  async #closeIdleBrowser(): Promise<void> {
    if (!this.browser.running || !this.#upstream) return;
    this.#options.log.info(`session ${this.id}: closing its browser after --idle-timeout without a tool call; the next call launches a new one`);
    await this.#upstream.callTool({ name: 'browser_close', arguments: {} }, undefined, { timeout: 30_000 }).catch(() => {});
    await this.browser.relaunchNext();
  }

  /** The browser's notes and links to the files a result names; new files announced, the byte count kept. */
  async #withFiles(answer: CallToolResult): Promise<CallToolResult> {
    const { result, bytes } = await withNotesAndFiles(answer, this.browser, this.files);
    if (bytes === undefined) return result;
    this.#outputBytes = bytes;
    await this.server.sendResourceListChanged().catch(() => {});
    return result;
  }

  async #dispatch(params: ToolCallParams, extra: CallExtra): Promise<CallToolResult> {
    const local = localTools.get(params.name);
    if (local) return jsonResult(local.run(this.#facts()));
    const refused = refusal(params.name, { unsafeCodeAllowed: unsafeCodeAllowed(this.#config), outputBytes: this.#outputBytes, outputMaxBytes: this.#ownOutputDir ? this.#config.sessionOutputMaxBytes : undefined });
    if (refused) return refused;
    const unavailable = params.name === ANNOTATE_TOOL && (await this.#listTools()).some((t) => t.name === ANNOTATE_TOOL) ? await beforeAnnotate(this.browser, this.server.getClientVersion()?.name) : undefined;
    if (unavailable) return unavailable;
    return guardedCall(this.#guardedSession, params, extra);
  }

  get #guardedSession(): GuardedCallSession {
    return {
      id: this.id,
      browser: this.browser,
      hangs: this.#hangs,
      log: this.#options.log,
      upstream: () => this.#requireUpstream(),
      navigationTimeoutMs: this.#options.upstreamConfig.timeouts?.navigation ?? 60_000,
      sharedBrowserContext: !!this.#options.upstreamConfig.sharedBrowserContext,
    };
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
      cdp: () => this.#launch.cdpInfo,
      pool: () => (this.#options.pool ? { ...this.#options.pool.info() } : null),
      shared: () => (this.#options.shared ? { ...this.#options.shared.info() } : null),
      files: () => ({ dir: this.outputDir, bytes: this.#outputBytes, maxBytes: this.#ownOutputDir ? this.#config.sessionOutputMaxBytes : null, removedAtEnd: this.#ownOutputDir && !this.#config.keepArtifacts }),
      identity: () => this.#launch.identity,
    };
  }

  #requireUpstream(): Client {
    if (!this.#upstream) throw new McpError(ErrorCode.InternalError, 'The session is not started.');
    return this.#upstream;
  }

  /** Closes the client connection, the upstream and the browser; safe to call twice. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.files.close();
      this.#idleClose.dispose();
      await Promise.allSettled([this.#upstream?.close(), this.server.close()]);
      await this.#closeLaunch();
    })();
    return this.#closing;
  }

  /** Its own launch closes with the session; a shared one with the last session (each session lets go of it once). */
  #closeLaunch(): Promise<void> {
    this.#launchClosed ??= this.#options.shared ? this.#options.shared.release(this.#launch) : this.#launch.close();
    return this.#launchClosed;
  }
}
