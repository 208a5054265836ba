import type { createConnection } from '@playwright/mcp';
import { ConfigError } from './config-error.ts';
import { boolean, integer, type Kind } from './kinds.ts';
import { parseSetting, type Env } from './load.ts';
import { settings, type Config } from './settings.ts';

export type UpstreamConfig = NonNullable<Parameters<typeof createConnection>[0]>;

interface CoreBundleTools {
  resolveCLIConfigForMCP(cliOptions: Record<string, unknown>, env: Env): Promise<UpstreamConfig>;
}

// The upstream reads these as booleans and numbers but silently ignores a value
// it cannot parse; we reject it instead, and normalise yes/no/on/off for it.
const UPSTREAM_BOOLEANS = [
  'ALLOW_UNRESTRICTED_FILE_ACCESS', 'BLOCK_SERVICE_WORKERS', 'EXTENSION', 'IGNORE_HTTPS_ERRORS',
  'ISOLATED', 'MOBILE', 'SANDBOX', 'WEBMCP', 'SNAPSHOT_BOXES',
];
const UPSTREAM_NUMBERS = [
  'CDP_TIMEOUT', 'OUTPUT_MAX_SIZE', 'PORT', 'TIMEOUT_ACTION', 'IDLE_TIMEOUT', 'TIMEOUT_NAVIGATION', 'TIMEOUT_SETTLE',
];
const anyCount = integer(0, Number.MAX_SAFE_INTEGER);

// Settings the bridge cannot honour because it launches and owns the browser.
const UNSUPPORTED: Record<string, string> = {
  PLAYWRIGHT_MCP_CDP_ENDPOINT: 'the bridge launches and owns its browser; it cannot attach to another one',
  PLAYWRIGHT_MCP_REMOTE_ENDPOINT: 'the bridge launches and owns its browser; it cannot attach to another one',
  // PLAYWRIGHT_MCP_USER_DATA_DIR and _PROXY_SERVER are our own settings now (settings.ts).
  PLAYWRIGHT_MCP_EXTENSION:
    'extension connection mode attaches to your own running Chrome through the Playwright MCP Bridge extension, while this server launches and owns its browser. To load unpacked extensions into that browser, use STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS with a persistent profile',
  PLAYWRIGHT_MCP_PORT: 'the upstream HTTP server is not used; use --transport streamable-http with --http-port',
  PLAYWRIGHT_MCP_HOST: 'the upstream HTTP server is not used; use --transport streamable-http with --http-host',
};

function upstreamEnv(env: Env, config: Config): Env {
  const out: Env = {};
  const ours = new Set(Object.values(settings).map((s) => s.env));
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
export async function resolveUpstreamConfig(config: Config, env: Env): Promise<UpstreamConfig> {
  // A literal import, not createRequire(): the standalone binary's bundler can
  // only embed what it sees statically (it has no node_modules at run time).
  const { tools } = (await import('playwright-core/lib/coreBundle')).default as { tools: CoreBundleTools };
  const cliOptions = { browser: 'chromium', headless: config.headless, outputDir: config.outputDir };
  let resolved: UpstreamConfig;
  try {
    resolved = await tools.resolveCLIConfigForMCP(cliOptions, upstreamEnv(env, config));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const file = env.PLAYWRIGHT_MCP_CONFIG ? ` (config file PLAYWRIGHT_MCP_CONFIG=${env.PLAYWRIGHT_MCP_CONFIG})` : '';
    throw new ConfigError(
      `Invalid PLAYWRIGHT_MCP_* setting${file}: ${(error as Error).message}. Fix: correct or unset it; accepted values are those of Playwright MCP (@playwright/mcp README).`,
    );
  }
  const browserName = resolved.browser?.browserName;
  if (browserName && browserName !== 'chromium')
    throw new ConfigError(`PLAYWRIGHT_MCP_BROWSER selects ${browserName}, but this server drives Chromium builds only. Fix: unset PLAYWRIGHT_MCP_BROWSER.`);
  const { channel: _channel, ...launchOptions } = resolved.browser?.launchOptions ?? {};
  return {
    ...resolved,
    filePaths: env.PLAYWRIGHT_MCP_FILE_PATHS ? resolved.filePaths : 'absolute',
    browser: { ...resolved.browser, browserName: 'chromium', isolated: false, launchOptions },
  };
}
