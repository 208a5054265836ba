import { proxyMode, supportsInlineProxyAuth } from '../browser/proxy/proxy-mode.ts';
import { inlineProxyUrl, maskCredentialsIn, maskedProxy, proxyServer, type ProxySpec } from '../browser/proxy/proxy-url.ts';
import { startRelay, type Relay } from '../browser/proxy/relay.ts';
import { checkProxy, ProxyError } from '../browser/proxy/tunnel.ts';
import type { LaunchExtras } from '../browser/launch-extras.ts';
import { metrics } from '../metrics/metrics.ts';
import { SessionRefused } from './session-refused.ts';
import type { SetupInput } from './session-setup.ts';

/** The session's proxy: checked (a clear refusal when it fails), then given to the browser inline, relayed or as Playwright's own. */
export async function routeProxy(spec: ProxySpec, input: SetupInput, extras: LaunchExtras, cleanups: (() => Promise<void>)[]): Promise<Record<string, unknown>> {
  const { config, binary, log } = input;
  const masked = maskedProxy(spec);
  try {
    await checkProxy(spec, config.proxyCheckTimeoutMs);
  } catch (error) {
    if (!(error instanceof ProxyError)) throw error;
    metrics.proxyCheckFailures.inc();
    const fix = error.auth
      ? `Fix: correct the user name and password in ${input.proxyOrigin} (percent-encode special characters).`
      : `Fix: check that the proxy runs and is reachable from this server, or correct ${input.proxyOrigin}.`;
    throw new SessionRefused(`Proxy ${masked} (${input.proxyOrigin}) failed its check: ${maskCredentialsIn(error.message, spec)}. ${fix}`, 502);
  }
  const inlineAuth = supportsInlineProxyAuth(binary);
  const mode = proxyMode(spec, inlineAuth);
  const bypass = config.proxyBypass?.join(',');
  if (mode === 'relay') {
    const relay: Relay = await startRelay(spec);
    cleanups.push(() => relay.close());
    extras.proxy = { server: relay.url, ...(bypass ? { bypass } : {}) };
  } else if (mode === 'inline') {
    // What Playwright would add for its own proxy object: loopback goes
    // through the proxy too, plus the operator's bypass list.
    extras.args.push(`--proxy-server=${inlineProxyUrl(spec)}`, `--proxy-bypass-list=${[...(config.proxyBypass ?? []), '<-loopback>'].join(';')}`);
  } else {
    extras.proxy = { server: proxyServer(spec), ...(spec.username !== undefined ? { username: spec.username, password: spec.password ?? '' } : {}), ...(bypass ? { bypass } : {}) };
  }
  log.info(`session proxy ${masked} (${mode})`);
  return { server: masked, mode, origin: input.proxyOrigin, bypass: config.proxyBypass ?? [] };
}
