import type { BrowserBinary } from '../browser/binary.ts';
import { extensionArgs } from '../browser/extensions.ts';
import type { LaunchExtras } from '../browser/launch-extras.ts';
import type { LaunchPlan } from '../browser/launch-options.ts';
import { namedProfileDir, ProfileError, profilesRoot, userDataDir } from '../browser/profiles/profile-dir.ts';
import { adoptProfileSeed } from '../browser/profiles/profile-seed.ts';
import { lockProfile, type ProfileLock } from '../browser/profiles/profile-lock.ts';
import { clearStaleSingletonLock } from '../browser/profiles/singleton-lock.ts';
import type { Config } from '../config/settings.ts';
import type { Logger } from '../log.ts';
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
    // Loaded only for a session that needs them (proxy-chain, socks, the GeoIP database reader):
    // ~60 ms of every start otherwise, before the browser launch.
    if (proxy) {
      info.proxy = await (await import('./session-proxy.ts')).routeProxy(proxy, input, extras, cleanups);
    } else info.proxy = null;

    if (config.geoipProxyMatch) info.geoip = await (await import('./session-geoip.ts')).matchLocation(proxy, input, extras);
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
