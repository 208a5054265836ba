import os from 'node:os';
import path from 'node:path';
import { boolean, filePath, oneOf, type Kind } from './kinds.ts';

// The one table of settings: flags, env names, defaults, `--help`, the README
// table and validation all read from here. A default is written the way a user
// would type it and goes through the same validation as user input.
export interface Setting<T> {
  flag: string;
  env: string;
  kind: Kind<T>;
  default?: string;
  help: string;
  /** Values are never echoed back (errors, logs, info). */
  secret?: boolean;
  section: 'browser' | 'server' | 'security';
}

function setting<T, D extends string | undefined = undefined>(
  s: Omit<Setting<T>, 'default'> & { default?: D },
): Setting<T> & { default: D } {
  return s as Setting<T> & { default: D };
}

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug', 'trace'] as const;

export const settings = {
  browserEngine: setting({
    flag: 'browser-engine',
    env: 'PLAYWRIGHT_MCP_BROWSER_ENGINE',
    kind: oneOf(['stealth', 'playwright']),
    default: 'stealth',
    help: 'Browser to drive: `stealth` (the stealth Chromium build) or `playwright` (stock Chromium: Playwright\'s installed one, else chromium/google-chrome on PATH)',
    section: 'browser',
  }),
  headless: setting({
    flag: 'headless',
    env: 'PLAYWRIGHT_MCP_HEADLESS',
    kind: boolean,
    default: 'true',
    help: 'Run the browser without a window',
    section: 'browser',
  }),
  binaryPath: setting({
    flag: 'binary-path',
    env: 'STEALTH_BINARY_PATH',
    kind: filePath,
    help: 'Use this Chromium executable for the stealth engine instead of the managed build',
    section: 'browser',
  }),
  cacheDir: setting({
    flag: 'cache-dir',
    env: 'STEALTH_CACHE_DIR',
    kind: filePath,
    default: '~/.stealth',
    help: 'Where stealth builds are cached',
    section: 'browser',
  }),
  noSandbox: setting({
    flag: 'no-sandbox',
    env: 'STEALTH_PLAYWRIGHT_MCP_NO_SANDBOX',
    kind: boolean,
    default: 'true',
    help: 'Run Chromium without its OS sandbox (needed as root and in most containers)',
    section: 'browser',
  }),
  outputDir: setting({
    flag: 'output-dir',
    env: 'PLAYWRIGHT_MCP_OUTPUT_DIR',
    kind: filePath,
    default: path.join(os.tmpdir(), 'stealth-playwright-mcp'),
    help: 'Root for screenshots, snapshots and logs; each session writes into <output-dir>/<session-id>/',
    section: 'server',
  }),
  transport: setting({
    flag: 'transport',
    env: 'STEALTH_PLAYWRIGHT_MCP_TRANSPORT',
    kind: oneOf(['stdio']),
    default: 'stdio',
    help: 'How MCP clients connect',
    section: 'server',
  }),
  logLevel: setting({
    flag: 'log-level',
    env: 'STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL',
    kind: oneOf(LOG_LEVELS),
    default: 'info',
    help: 'Detail of the log written to stderr',
    section: 'server',
  }),
  allowUnsafeCode: setting({
    flag: 'allow-unsafe-code',
    env: 'STEALTH_PLAYWRIGHT_MCP_ALLOW_UNSAFE_CODE',
    kind: boolean,
    default: 'false',
    help: 'Offer `browser_run_code_unsafe`, which runs client-supplied code inside this server process',
    section: 'security',
  }),
};

export type Settings = typeof settings;
export type SettingKey = keyof Settings;
type ValueOf<S> = S extends Setting<infer T> ? T : never;
export type Config = {
  [K in SettingKey]: Settings[K]['default'] extends string ? ValueOf<Settings[K]> : ValueOf<Settings[K]> | undefined;
};
