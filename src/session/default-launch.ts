import type { Config } from '../config/settings.ts';
import { ownFields, type SessionOverrides } from './session-overrides.ts';

/** A session whose browser a warm pool browser can be: the process defaults, nothing of its own. */
export function takesDefaultLaunch(config: Config, overrides: SessionOverrides = {}): boolean {
  return ownFields(overrides).length === 0 && !config.userDataDir && !config.extensionPaths?.length && !config.geoipProxyMatch && !config.cdpEnabled && !config.proxyServer;
}
