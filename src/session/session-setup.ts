import type { BrowserBinary } from '../browser/binary.ts';
import { extensionArgs } from '../browser/extensions.ts';
import { applyGeo } from '../browser/geoip/apply.ts';
import { GeoDatabaseMissing } from '../browser/geoip/database.ts';
import { matchGeo } from '../browser/geoip/match.ts';
import type { LaunchExtras } from '../browser/launch-extras.ts';
import type { LaunchPlan } from '../browser/launch-options.ts';
import { namedProfileDir, ProfileError, profilesRoot, userDataDir } from '../browser/profiles/profile-dir.ts';
import { adoptProfileSeed } from '../browser/profiles/profile-seed.ts';
import { lockProfile, type ProfileLock } from '../browser/profiles/profile-lock.ts';
import { clearStaleSingletonLock } from '../browser/profiles/singleton-lock.ts';
import { proxyMode, supportsInlineProxyAuth } from '../browser/proxy/proxy-mode.ts';
import { inlineProxyUrl, maskCredentialsIn, maskedProxy, proxyServer, type ProxySpec } from '../browser/proxy/proxy-url.ts';
import { startRelay, type Relay } from '../browser/proxy/relay.ts';
import { checkProxy, ProxyError } from '../browser/proxy/tunnel.ts';
import type { Config } from '../config/settings.ts';
import type { Logger } from '../log.ts';
import { metrics } from '../metrics/metrics.ts';
import { SessionRefused } from './session-refused.ts';

export interface SetupInput {
  /** The session's settings (process config with its overrides). */
  config: Config;
  /** Where `proxy` came from, for messages: the session field or the process setting. */
  proxyOrigin: string;
  profile: string | undefined;
  plan: LaunchPlan;
  binary: BrowserBinary;
  log: Logger;
}

export interface SessionSetup {
  extras: LaunchExtras;
  /** For stealth_bridge_info; never holds a credential. */
  info: Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Everything a session needs before its browser can start: its profile
 * claimed, its proxy checked (and relayed), its location matched. Fails with
 * a SessionRefused that says what and how to fix, and leaves nothing behind.
 */
export async function setUpSession(input: SetupInput): Promise<SessionSetup> {
  const { config, plan, log } = input;
  const extras: LaunchExtras = { args: [], env: {}, context: {} };
  const info: Record<string, unknown> = {};
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => log.warn('session cleanup failed:', error));
  };
  try {
    const lock = await claimProfile(input);
    if (lock) {
      cleanups.push(() => lock.release());
      extras.userDataDir = lock.dir;
      extras.beforeLaunch = async () => {
        const cleared = await clearStaleSingletonLock(lock.dir, profileLabel(input)).catch(refuseProfile);
        if (cleared) log.info(cleared);
      };
      await extras.beforeLaunch();
      if (plan.stealth) await adoptProfileSeed(lock.dir, plan.stealth, plan.launch.args ?? []);
      info.profile = { name: input.profile ?? null, dir: lock.dir, persistent: true };
    } else info.profile = { persistent: false };

    const extensions = config.extensionPaths ?? [];
    if (extensions.length && !lock)
      throw new SessionRefused('This server loads browser extensions (STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS), which need a persistent profile. Start the session with a `profile` name, or ask the operator to set PLAYWRIGHT_MCP_USER_DATA_DIR.', 400);
    extras.args.push(...extensionArgs(extensions));
    info.extensions = extensions;

    const proxy = config.proxyServer;
    if (proxy) {
      info.proxy = await routeProxy(proxy, input, extras, cleanups);
    } else info.proxy = null;

    if (config.geoipProxyMatch) info.geoip = await matchLocation(proxy, input, extras);
    else info.geoip = { enabled: false };
    return { extras, info, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function profileLabel(input: SetupInput): string {
  return input.profile ? `Profile "${input.profile}"` : `PLAYWRIGHT_MCP_USER_DATA_DIR ${input.config.userDataDir}`;
}

function refuseProfile(error: unknown): never {
  if (error instanceof ProfileError) throw new SessionRefused(error.message, error.status);
  throw error;
}

async function claimProfile(input: SetupInput): Promise<ProfileLock | undefined> {
  const { config } = input;
  try {
    const dir = input.profile
      ? await namedProfileDir(profilesRoot(config.outputDir), input.profile)
      : config.userDataDir
        ? await userDataDir(config.userDataDir, 'PLAYWRIGHT_MCP_USER_DATA_DIR')
        : undefined;
    return dir ? await lockProfile(dir, profileLabel(input)) : undefined;
  } catch (error) {
    return refuseProfile(error);
  }
}

async function routeProxy(spec: ProxySpec, input: SetupInput, extras: LaunchExtras, cleanups: (() => Promise<void>)[]): Promise<Record<string, unknown>> {
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

async function matchLocation(proxy: ProxySpec | undefined, input: SetupInput, extras: LaunchExtras): Promise<Record<string, unknown>> {
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
