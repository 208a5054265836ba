import { applyGeo } from '../browser/geoip/apply.ts';
import { GeoDatabaseMissing } from '../browser/geoip/database.ts';
import { matchGeo } from '../browser/geoip/match.ts';
import type { LaunchExtras } from '../browser/launch-extras.ts';
import { maskCredentialsIn, maskedProxy, type ProxySpec } from '../browser/proxy/proxy-url.ts';
import { metrics } from '../metrics/metrics.ts';
import { SessionRefused } from './session-refused.ts';
import type { SetupInput } from './session-setup.ts';

/** The session's location from its exit IP (timezone, locale, geolocation); refused with the reason, unless the operator allows unmatched. */
export async function matchLocation(proxy: ProxySpec | undefined, input: SetupInput, extras: LaunchExtras): Promise<Record<string, unknown>> {
  const { config, plan, binary, log } = input;
  try {
    const match = await matchGeo({ proxy, endpoints: config.geoipIpEchoUrls, timeoutMs: config.geoipTimeoutMs, database: config.geoipDb });
    const stealthBuild = binary.stealthBuildVersion !== null;
    const applied = applyGeo(match, plan, extras, stealthBuild);
    log.info(`session GeoIP: exit ${match.exitIp} → ${match.countryCode ?? '?'} ${match.timezone} ${match.locale}`);
    return { enabled: true, matched: true, via: proxy ? maskedProxy(proxy) : 'direct (no proxy)', ...match, applied };
  } catch (error) {
    metrics.geoipFailures.inc();
    const reason = maskCredentialsIn((error as Error).message, proxy);
    if (config.geoipAllowUnmatched) {
      log.warn(`session GeoIP matching failed, continuing unmatched (--geoip-allow-unmatched): ${reason}`);
      return { enabled: true, matched: false, reason };
    }
    const status = error instanceof GeoDatabaseMissing ? 500 : 502;
    throw new SessionRefused(
      `GeoIP matching (geoipProxyMatch) failed: ${reason}. Fix: check the proxy and the IP-echo endpoints (--geoip-ip-echo-urls), start the session without geoipProxyMatch, or let the operator set --geoip-allow-unmatched.`,
      status,
    );
  }
}
