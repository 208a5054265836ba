import { boolean, oneOf, portRange, text } from '../kinds.ts';
import { setting } from './setting.ts';

// Managed CDP (DevTools) access per session.
export const cdpSettings = {
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
};
