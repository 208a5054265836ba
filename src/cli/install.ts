import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

// What the first session would do, done now: a container image build, a CI
// cache step or an offline machine gets a verified build ahead of time.
export default defineCommand({
  meta: { name: 'install', description: COMMANDS.install },
  async run({ rawArgs }) {
    const { startup } = await import('./startup.ts');
    const { config, upstreamConfig, log } = await startup(rawArgs);
    if (config.browserEngine !== 'stealth' || config.binaryPath) {
      process.stderr.write('install: nothing to download: the stealth build is only fetched with --browser-engine stealth and no --binary-path.\n');
      process.exitCode = 2;
      return;
    }
    const { resolveBrowserBinary } = await import('../browser/binary.ts');
    const binary = await resolveBrowserBinary(config, upstreamConfig, process.env, log);
    const executable = await binary.ensure(log);
    log.info(`stealth build ${binary.stealthBuildVersion ?? '?'} ready (${binary.source === 'cache' && binary.installed ? 'verified and installed' : binary.source}) in ${config.cacheDir}`);
    process.stdout.write(`${executable}\n`);
  },
});
