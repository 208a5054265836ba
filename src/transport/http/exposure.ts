import { ConfigError } from '../../config/config-error.ts';
import type { Config } from '../../config/settings.ts';
import type { Logger } from '../../log.ts';
import { isLoopbackHost } from './guards.ts';

/**
 * A non-loopback bind hands a browser (and the machine's network position) to
 * whoever reaches the port: refuse it unless traffic is encrypted and
 * authenticated here, or the operator says a TLS-terminating proxy does it.
 */
export function assertSafeExposure(config: Config, log: Logger): void {
  if (isLoopbackHost(config.httpHost)) return;
  if (config.trustProxy) {
    if (!config.httpAuthToken) log.warn(`listening on ${config.httpHost} without --http-auth-token: the reverse proxy must authenticate clients`);
    return;
  }
  if (config.httpProtocol === 'https' && config.httpAuthToken) return;
  throw new ConfigError(
    `Refusing to listen on ${config.httpHost}, which is not a loopback address, without HTTPS and a token: anyone who reaches the port would control a browser. ` +
      'Fix: either add --http-protocol https (with --https-cert/--https-key or --https-pfx) and --http-auth-token <token>, ' +
      'or put a trusted TLS-terminating reverse proxy in front and acknowledge it with --trust-proxy (preferably with --http-auth-token too).',
  );
}
