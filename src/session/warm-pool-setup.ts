import path from 'node:path';
import type { BrowserBinary } from '../browser/binary.ts';
import { withContextOptions } from '../browser/context-options.ts';
import { launchPlan } from '../browser/launch-options.ts';
import { SessionBrowser } from '../browser/session-browser.ts';
import type { Config } from '../config/settings.ts';
import { attaching, type UpstreamConfig } from '../config/upstream.ts';
import { instanceLaunchArgs } from '../instance/instance.ts';
import type { Logger } from '../log.ts';
import { sessionId, takesDefaultLaunch } from './bridge-session.ts';
import { WarmPool } from './warm-pool.ts';

/**
 * The HTTP warm pool, when it can serve: sessions with the process-default
 * launch profile. A process proxy, GeoIP matching, a persistent profile,
 * extensions or managed CDP make every session's browser its own.
 */
export async function warmPool(input: { config: Config; upstreamConfig: UpstreamConfig; binary: BrowserBinary; log: Logger }): Promise<WarmPool | undefined> {
  const { config, upstreamConfig, binary, log } = input;
  if (config.httpPrewarm === 0) return undefined;
  if (attaching(upstreamConfig)) {
    log.info('--http-prewarm is off: sessions attach to the browser at --cdp-endpoint/--endpoint');
    return undefined;
  }
  if (!takesDefaultLaunch(config)) {
    log.info('--http-prewarm is off: with a process proxy, GeoIP matching, a persistent profile, extensions or managed CDP each session launches its own browser');
    return undefined;
  }
  const upstream = withContextOptions(upstreamConfig, config.contextOptions);
  const pool = new WarmPool(
    config.httpPrewarm,
    () => {
      // A fresh plan each time: its own fingerprint seed. Its session id is
      // reserved now, so traces land in that session's dir.
      const id = sessionId(config);
      const plan = launchPlan(config, upstream, binary);
      plan.launch.tracesDir = path.join(upstreamConfig.outputDir ?? config.outputDir, id, 'traces');
      const browser = new SessionBrowser(plan, log.withTag('warm'), { extraArgs: async () => instanceLaunchArgs() });
      browser.markWarm(id);
      return browser;
    },
    log,
  );
  return pool;
}
