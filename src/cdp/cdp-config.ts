import { ConfigError } from '../config/config-error.ts';
import type { Config } from '../config/settings.ts';
import { isLoopbackHost } from '../transport/http/guards.ts';
import { PortPool } from './port-pool.ts';

/**
 * Checks the CDP settings at startup and builds the process-wide port pool
 * (undefined when no range is set: then no session can enable CDP).
 */
export function cdpPool(config: Config): PortPool | undefined {
  if (!isLoopbackHost(config.cdpHost)) {
    if (!config.cdpAllowRemote)
      throw new ConfigError(`--cdp-host ${config.cdpHost} is not a loopback address: anyone reaching it with a CDP URL controls that browser. Fix: add --cdp-allow-remote to confirm, or bind 127.0.0.1.`);
    if (!config.cdpAdvertisedHost)
      throw new ConfigError(`--cdp-host ${config.cdpHost} needs --cdp-advertised-host: the host name clients use to reach it goes into every CDP URL. Fix: pass --cdp-advertised-host <name>.`);
  }
  if (!config.cdpPortRange) {
    if (config.cdpEnabled) throw new ConfigError('--cdp-enabled needs --cdp-port-range first-last (ports to lease, one per session). Fix: add e.g. --cdp-port-range 9300-9331.');
    return undefined;
  }
  return new PortPool(config.cdpPortRange, config.cdpHost);
}
