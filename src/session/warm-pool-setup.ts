import { attaching, type UpstreamConfig } from '../config/upstream.ts';
import type { Config } from '../config/settings.ts';
import type { Logger } from '../log.ts';
import type { BridgeSession } from './bridge-session.ts';
import { takesDefaultLaunch } from './default-launch.ts';
import { WarmPool } from './warm-pool.ts';

/**
 * The HTTP warm pool, when it can serve: sessions with the process-default
 * launch profile. A process proxy, GeoIP matching, a persistent profile,
 * extensions, managed CDP or attach mode make every session's browser its own.
 */
export function warmPool(input: { config: Config; upstreamConfig: UpstreamConfig; log: Logger; make: () => BridgeSession }): WarmPool<BridgeSession> | undefined {
  const { config, upstreamConfig, log, make } = input;
  if (config.httpPrewarm === 0) return undefined;
  if (attaching(upstreamConfig)) {
    log.info('--http-prewarm is off: sessions attach to the browser at --cdp-endpoint/--endpoint');
    return undefined;
  }
  if (!takesDefaultLaunch(config)) {
    log.info('--http-prewarm is off: with a process proxy, GeoIP matching, a persistent profile, extensions or managed CDP each session launches its own browser');
    return undefined;
  }
  return new WarmPool(config.httpPrewarm, make, log);
}
