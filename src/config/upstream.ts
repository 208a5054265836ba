import type { createConnection } from '@playwright/mcp';
import { coreBundle, utilsBundle } from '../playwright-bundles.ts';
import { ConfigError } from './config-error.ts';
import { boolean, integer, type Kind } from './kinds.ts';
import { parseSetting, type Env } from './load.ts';
import { settings, type Config } from './settings.ts';
import { checkDevice } from './upstream-device.ts';
import { mergeUpstreamConfig } from './upstream-object.ts';
import { checkCaps } from './upstream-flags.ts';
import { checkNumericConfig, checkNumericFlags } from './upstream-numbers.ts';

// Chromium-based values of the upstream's --browser: all run on our engine's Chromium.
export const CHROMIUM_FAMILY = /^(chromium|chrome(-\w+)?|msedge(-\w+)?)$/;

interface CommanderLike {
  options: { attributeName(): string }[];
  exitOverride(): CommanderLike;
  action(fn: () => void): CommanderLike;
  configureOutput(o: { writeOut(s: string): void; writeErr(s: string): void }): CommanderLike;
  parse(argv: readonly string[], o: { from: 'user' }): CommanderLike;
  opts(): Record<string, unknown>;
}

/** A browser the user runs: CDP (--cdp-endpoint) or a Playwright server (--endpoint). */
export function attaching(upstream: UpstreamConfig): boolean {
  return Boolean(upstream.browser?.cdpEndpoint || upstream.browser?.remoteEndpoint);
}

async function upstreamHeadless(tools: CoreBundleTools, cliOptions: Record<string, unknown>, env: Env, fallback: boolean): Promise<boolean> {
  const resolved = await tools.resolveCLIConfigForMCP(cliOptions, env).catch(() => undefined);
  const headless = resolved?.browser?.launchOptions?.headless;
  return typeof headless === 'boolean' ? headless : fallback;
}

/** Whether the resolved viewport is the upstream's default: it follows headless, which a set one does not. */
async function viewportDefaulted(tools: CoreBundleTools, cliOptions: Record<string, unknown>, env: Env, viewport: unknown): Promise<boolean> {
  const other = await tools.resolveCLIConfigForMCP({ ...cliOptions, headless: !cliOptions.headless }, env).catch(() => undefined);
  const otherViewport = other?.browser?.contextOptions?.viewport;
  const pair = cliOptions.headless ? [viewport, otherViewport] : [otherViewport, viewport];
  const headlessDefault = pair[0] as { width?: number; height?: number } | null | undefined;
  return headlessDefault?.width === 1280 && headlessDefault?.height === 720 && pair[1] === null;
}

/** The upstream's flags, parsed by the upstream's own commander definition (same syntax and value parsers). */
async function parseUpstreamArgv(tools: CoreBundleTools, argv: readonly string[]): Promise<Record<string, unknown>> {
  if (!argv.length) return {};
  const { program } = (await utilsBundle()) as { program: { constructor: new () => CommanderLike } };
  const command = new program.constructor();
  tools.decorateMCPCommand(command, '0');
  command.exitOverride().action(() => {}).configureOutput({ writeOut: (s) => process.stderr.write(s), writeErr: () => {} });
  let options: Record<string, unknown>;
  try {
    options = command.parse(argv, { from: 'user' }).opts();
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.replace(/^error: /, '')}. Fix: correct the flag; accepted values are those of Playwright MCP (run --help).`);
  }
  checkNumericFlags(options, argv);
  // What the upstream CLI's own action does before resolving.
  const caps = options.caps as string[] | undefined;
  if (options.vision) options.caps = [...(caps ?? []), 'vision'];
  if ((options.caps as string[] | undefined)?.includes('tracing')) (options.caps as string[]).push('devtools');
  // Defaults of commander's boolean negations would override env and config file.
  for (const key of ['sandbox', 'webmcp']) if (options[key] === true && !argv.includes(`--${key}`)) delete options[key];
  return options;
}

export type UpstreamConfig = NonNullable<Parameters<typeof createConnection>[0]>;

interface CoreBundleTools {
  resolveCLIConfigForMCP(cliOptions: Record<string, unknown>, env: Env): Promise<UpstreamConfig>;
  decorateMCPCommand(command: CommanderLike, version: string): void;
}

// The upstream reads these as booleans and numbers but silently ignores a value
// it cannot parse; we reject it instead, and normalise yes/no/on/off for it.
const UPSTREAM_BOOLEANS = [
  'ALLOW_UNRESTRICTED_FILE_ACCESS', 'BLOCK_SERVICE_WORKERS', 'EXTENSION', 'IGNORE_HTTPS_ERRORS',
  'ISOLATED', 'MOBILE', 'SANDBOX', 'WEBMCP', 'SNAPSHOT_BOXES', 'BACKGROUND', 'IGNORE_ROOTS', 'NO_TAB_GROUP',
];
const UPSTREAM_NUMBERS = [
  'CDP_TIMEOUT', 'OUTPUT_MAX_SIZE', 'PORT', 'TIMEOUT_ACTION', 'IDLE_TIMEOUT', 'TIMEOUT_NAVIGATION', 'TIMEOUT_SETTLE',
];
const anyCount = integer(0, Number.MAX_SAFE_INTEGER);

// Settings the bridge cannot honour because it launches and owns the browser.
const UNSUPPORTED: Record<string, string> = {
  PLAYWRIGHT_MCP_EXTENSION:
    'extension connection mode attaches to your own running Chrome through the Playwright MCP Bridge extension, while this server launches and owns its browser. To load unpacked extensions into that browser, use STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS with a persistent profile',
};

// Upstream and vendor variables that name one of our settings; ours win when both are set.
export const UPSTREAM_ENV_ALIASES: Record<string, { setting: string; also?: Record<string, string> }> = {
  PLAYWRIGHT_MCP_PORT: { setting: 'STEALTH_PLAYWRIGHT_MCP_HTTP_PORT', also: { STEALTH_PLAYWRIGHT_MCP_TRANSPORT: 'streamable-http' } },
  // A host alone leaves the upstream on stdio: only its port means HTTP.
  PLAYWRIGHT_MCP_HOST: { setting: 'STEALTH_PLAYWRIGHT_MCP_HTTP_HOST' },
  PLAYWRIGHT_MCP_EXECUTABLE_PATH: { setting: 'STEALTH_BINARY_PATH' },
  PLAYWRIGHT_MCP_ALLOWED_HOSTS: { setting: 'STEALTH_PLAYWRIGHT_MCP_HTTP_ALLOWED_HOSTS' },
  // The stealth build vendor's own client variables (CloakBrowser), for users who followed its docs.
  CLOAKBROWSER_LICENSE_KEY: { setting: 'STEALTH_LICENSE_KEY' },
  CLOAKBROWSER_DOWNLOAD_URL: { setting: 'STEALTH_DOWNLOAD_URL' },
  CLOAKBROWSER_CACHE_DIR: { setting: 'STEALTH_CACHE_DIR' },
  CLOAKBROWSER_BINARY_PATH: { setting: 'STEALTH_BINARY_PATH' },
};

/** The environment with upstream aliases copied to our names where ours are unset. */
export function withUpstreamAliases(env: Env): Env {
  const out: Env = { ...env };
  for (const [upstream, { setting, also }] of Object.entries(UPSTREAM_ENV_ALIASES)) {
    const value = env[upstream];
    if (value === undefined || value === '' || (env[setting] ?? '') !== '') continue;
    out[setting] = value;
    for (const [name, implied] of Object.entries(also ?? {})) if ((out[name] ?? '') === '') out[name] = implied;
  }
  return out;
}

function upstreamEnv(env: Env, config: Config): Env {
  const out: Env = {};
  const ours = new Set([...Object.values(settings).map((s) => s.env), ...Object.keys(UPSTREAM_ENV_ALIASES)]);
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('PLAYWRIGHT_MCP_') || ours.has(name) || value === undefined || value === '') continue;
    const short = name.slice('PLAYWRIGHT_MCP_'.length);
    const off = short === 'EXTENSION' && /^(false|0|no|off)$/i.test(value.trim());
    if (short === 'EXTENSION' && !off && config.extensionPaths)
      throw new ConfigError(
        'PLAYWRIGHT_MCP_EXTENSION=true (extension connection mode: attach to your own Chrome) conflicts with STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS (load unpacked extensions into the browser this server launches). ' +
          'Fix: unset PLAYWRIGHT_MCP_EXTENSION to load the extensions, or unset STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS.',
      );
    if (UNSUPPORTED[name] && !off)
      throw new ConfigError(`${name} is set, but ${UNSUPPORTED[name]}. Fix: unset ${name}.`);
    const kind: Kind<unknown> | undefined = UPSTREAM_BOOLEANS.includes(short) ? boolean : UPSTREAM_NUMBERS.includes(short) ? anyCount : undefined;
    out[name] = kind ? String(parseSetting({ env: name, kind }, value, name)) : value;
  }
  return out;
}

/**
 * Resolves every other `PLAYWRIGHT_MCP_*` variable (and `PLAYWRIGHT_MCP_CONFIG`)
 * with the upstream's own resolver, so both sides agree on what they mean.
 */
export interface UpstreamInputs {
  /** Upstream flags from the command line, for the upstream's own parser. */
  argv?: readonly string[];
  /** The output dir was given (flag or env); otherwise the upstream's default applies over stdio. */
  outputDirGiven?: boolean;
  /** --headless or PLAYWRIGHT_MCP_HEADLESS was given; otherwise over stdio the upstream decides, as its CLI does. */
  headlessGiven?: boolean;
  /** The programmatic entry's config object (api/create-connection.ts), merged over the rest as the upstream merges it. */
  object?: UpstreamConfig;
}

// The resolution above is handed `browser: chromium` (our engine), which hides a config file's
// own browser.browserName; the file alone, read by the upstream's loader, tells it.
async function checkFileBrowser(tools: CoreBundleTools, file: string | undefined): Promise<void> {
  if (!file) return;
  const name = await tools.resolveCLIConfigForMCP({ config: file }, {}).then((c) => c.browser?.browserName, () => undefined);
  if (name && name !== 'chromium')
    throw new ConfigError(`browser.browserName in the config file ${file} is ${name}, but this server drives Chromium builds only (the engine is chosen by --browser-engine). Fix: drop it, or use chromium.`);
}

export async function resolveUpstreamConfig(config: Config, env: Env, inputs: UpstreamInputs = {}): Promise<UpstreamConfig> {
  const upstreamArgv = inputs.argv ?? [];
  const { tools, server } = (await coreBundle()) as { tools: CoreBundleTools; server: { deviceDescriptors: Record<string, unknown> } };
  if (env.PLAYWRIGHT_MCP_CAPS) checkCaps(env.PLAYWRIGHT_MCP_CAPS, 'PLAYWRIGHT_MCP_CAPS');
  const fromFlags = await parseUpstreamArgv(tools, upstreamArgv);
  if (fromFlags.device !== undefined) checkDevice(fromFlags.device, '--device', server.deviceDescriptors);
  else checkDevice(env.PLAYWRIGHT_MCP_DEVICE, 'PLAYWRIGHT_MCP_DEVICE', server.deviceDescriptors);
  const stdio = config.transport === 'stdio';
  // Over stdio an output dir nobody gave is the upstream's own default (relative to the working directory).
  const outputDir = inputs.outputDirGiven || !stdio ? { outputDir: config.outputDir } : {};
  const filtered = upstreamEnv(env, config);
  // Over stdio, headless unless asked otherwise is the upstream CLI's choice:
  // the config file's launchOptions.headless, else headed where there is a
  // display (not on Linux without DISPLAY). Over HTTP the process default stays
  // headless (a session asks for a window itself).
  const headless = stdio && inputs.headlessGiven === false ? await upstreamHeadless(tools, { ...fromFlags, browser: 'chromium', ...outputDir }, filtered, config.headless) : config.headless;
  const cliOptions = { ...fromFlags, browser: 'chromium', headless, ...outputDir };
  const configFile = (fromFlags.config as string | undefined) ?? env.PLAYWRIGHT_MCP_CONFIG;
  let resolved: UpstreamConfig;
  try {
    resolved = await tools.resolveCLIConfigForMCP(cliOptions, filtered);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const file = configFile ? ` (config file ${configFile}${fromFlags.config ? ', --config' : ', PLAYWRIGHT_MCP_CONFIG'})` : '';
    throw new ConfigError(
      `Invalid Playwright MCP setting${file}: ${(error as Error).message.replace(/\.$/, '')}. Fix: correct or unset it; accepted values are those of Playwright MCP (@playwright/mcp README).`,
    );
  }
  if (inputs.object) resolved = mergeUpstreamConfig(resolved, inputs.object);
  // --user-data-dir is ours, so the upstream's resolver never sees it beside `isolated`, which it refuses.
  if (resolved.browser?.isolated && config.userDataDir)
    throw new ConfigError(
      `--isolated (a profile kept in memory) and --user-data-dir ${config.userDataDir} (a profile kept on disk) ask for two profiles; Playwright MCP refuses the pair too ("Browser userDataDir is not supported in isolated mode"). Fix: drop --isolated (or PLAYWRIGHT_MCP_ISOLATED, browser.isolated) to keep the profile in that dir, or drop --user-data-dir (PLAYWRIGHT_MCP_USER_DATA_DIR) for one in memory.`,
    );
  checkNumericConfig(resolved, configFile);
  const browser = (fromFlags.browser as string | undefined) ?? env.PLAYWRIGHT_MCP_BROWSER;
  if (browser && !CHROMIUM_FAMILY.test(browser))
    throw new ConfigError(`${fromFlags.browser ? '--browser' : 'PLAYWRIGHT_MCP_BROWSER'} selects ${browser}, but this server drives Chromium builds only (the engine is chosen by --browser-engine). Fix: drop it, or use chromium.`);
  if (!browser) await checkFileBrowser(tools, configFile);
  const { channel: _channel, ...launchOptions } = resolved.browser?.launchOptions ?? {};
  // The upstream fills in a viewport nobody set (1280x720 headless, none headed);
  // the launch plan decides it instead (the vendor's geometry on the stealth engine).
  const contextOptions = { ...resolved.browser?.contextOptions };
  if (inputs.object?.browser?.contextOptions?.viewport === undefined && (await viewportDefaulted(tools, cliOptions, filtered, contextOptions.viewport))) delete contextOptions.viewport;
  return {
    ...resolved,
    // A remote (HTTP) client cannot resolve paths relative to the server's working directory.
    filePaths: env.PLAYWRIGHT_MCP_FILE_PATHS || fromFlags.filePaths || stdio ? resolved.filePaths : 'absolute',
    // --isolated wins over --shared-browser-context (the upstream gives each client a context of its own): over HTTP each session keeps its own browser.
    ...(resolved.sharedBrowserContext && resolved.browser?.isolated && !stdio && !attaching(resolved) ? { sharedBrowserContext: false } : {}),
    // Attaching, `isolated` says whether a session takes a new context (true) or the browser's own (stdio default, as upstream).
    browser: { ...resolved.browser, browserName: 'chromium', isolated: attaching(resolved) ? resolved.browser?.isolated === true : false, launchOptions, contextOptions },
  };
}
