import type { BrowserBinary } from '../browser/binary.ts';
import { withContextOptions } from '../browser/context-options.ts';
import { launchPlan } from '../browser/launch-options.ts';
import { SessionBrowser } from '../browser/session-browser.ts';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import { instanceLaunchArgs } from '../instance/instance.ts';
import type { Logger } from '../log.ts';
import { takesDefaultLaunch } from './bridge-session.ts';
import { WarmPool } from './warm-pool.ts';

/**
 * The HTTP warm pool, when it can serve: sessions with the process-default
 * launch profile. A process proxy, GeoIP matching, a persistent profile,
 * extensions or managed CDP make every session's browser its own.
 */
export async function warmPool(input: { config: Config; upstreamConfig: UpstreamConfig; binary: BrowserBinary; log: Logger }): Promise<WarmPool | undefined> {
  const { config, upstreamConfig, binary, log } = input;
  if (config.httpPrewarm === 0) return undefined;
  if (!takesDefaultLaunch(config)) {
    log.info('--http-prewarm is off: with a process proxy, GeoIP matching, a persistent profile, extensions or managed CDP each session launches its own browser');
    return undefined;
  }
  const upstream = withContextOptions(upstreamConfig, config.contextOptions);
  const pool = new WarmPool(
    config.httpPrewarm,
    () => {
      // A fresh plan each time: its own fingerprint seed.
      const browser = new SessionBrowser(launchPlan(config, upstream, binary), log.withTag('warm'), { extraArgs: async () => instanceLaunchArgs() });
      browser.markWarm();
      return browser;
    },
    log,
  );
  return pool;
}
