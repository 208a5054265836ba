import path from 'node:path';
import { parseProxyUrl } from '../browser/proxy/proxy-url.ts';
import { ConfigError } from './config-error.ts';
import type { Config } from './settings.ts';
import type { UpstreamConfig } from './upstream.ts';

type LaunchOptions = NonNullable<NonNullable<UpstreamConfig['browser']>['launchOptions']>;

/**
 * The upstream's launch options (its config file, `--executable-path`,
 * `--proxy-server`) and the config file's `browser.userDataDir` reach our
 * launcher: the executable, the proxy and the profile become our settings
 * where ours are unset (a conflict is said once, naming the option;
 * `channel` is decided by --browser-engine; `headless` is the upstream's where
 * --headless was not given). Returns the settings and the upstream config
 * without the options taken over.
 */
export function adoptLaunchOptions(config: Config, upstream: UpstreamConfig): { config: Config; upstream: UpstreamConfig; notes: string[] } {
  const launch: LaunchOptions = { ...upstream.browser?.launchOptions };
  const notes: string[] = [];
  let adopted = config;
  if (launch.executablePath) {
    if (!config.binaryPath) adopted = { ...adopted, binaryPath: launch.executablePath };
    else if (config.binaryPath !== launch.executablePath) notes.push(`browser.launchOptions.executablePath (${launch.executablePath}) is not used: --binary-path (${config.binaryPath}) wins.`);
    delete launch.executablePath;
  }
  if (launch.proxy?.server && !config.proxyServer) {
    const { server, username, password, bypass } = launch.proxy;
    try {
      const url = new URL(server.includes('://') ? server : `http://${server}`);
      if (username) url.username = encodeURIComponent(username);
      if (password) url.password = encodeURIComponent(password);
      adopted = { ...adopted, proxyServer: parseProxyUrl(url.href), ...(bypass && !config.proxyBypass ? { proxyBypass: bypass.split(',').map((s) => s.trim()).filter(Boolean) } : {}) };
    } catch (error) {
      throw new ConfigError(`browser.launchOptions.proxy.server of the Playwright MCP config is not a proxy URL (${(error as Error).message}). Fix: write it as http://host:port or socks5://host:port.`);
    }
  }
  delete launch.proxy;
  // Over stdio without --headless the upstream decided (resolveUpstreamConfig): its choice is ours.
  if (typeof launch.headless === 'boolean' && launch.headless !== config.headless) adopted = { ...adopted, headless: launch.headless };
  // A profile the config file keeps (logins, cookies): ours to open, as --user-data-dir's is.
  const { userDataDir, ...browser } = upstream.browser ?? {};
  if (userDataDir) {
    const dir = path.resolve(userDataDir);
    if (!config.userDataDir) adopted = { ...adopted, userDataDir: dir };
    else if (path.resolve(config.userDataDir) !== dir) notes.push(`browser.userDataDir (${userDataDir}) is not used: --user-data-dir (${config.userDataDir}) wins.`);
  }
  return { config: adopted, upstream: { ...upstream, browser: { ...browser, launchOptions: launch } }, notes };
}
