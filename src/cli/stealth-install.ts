import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import type { Logger } from '../log.ts';

/** Downloads and verifies the stealth build now, as the first session would; prints the executable on stdout. */
export async function installStealthBuild(config: Config, upstreamConfig: UpstreamConfig, log: Logger): Promise<void> {
  const { resolveBrowserBinary } = await import('../browser/binary.ts');
  const binary = await resolveBrowserBinary(config, upstreamConfig, process.env, log);
  const executable = await binary.ensure(log);
  log.info(`stealth build ${binary.stealthBuildVersion ?? '?'} ready (${binary.source === 'cache' && binary.installed ? 'verified and installed' : binary.source}) in ${config.cacheDir}`);
  process.stdout.write(`${executable}\n`);
}

/** Why there is nothing to download, or undefined when the stealth build is the browser. */
export function nothingToInstall(config: Config): string | undefined {
  if (config.browserEngine === 'stealth' && !config.binaryPath) return undefined;
  return 'nothing to download: the stealth build is only fetched with --browser-engine stealth and no --binary-path';
}
