import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

// What the first session would do, done now: a container image build, a CI
// cache step or an offline machine gets a verified build ahead of time.
export default defineCommand({
  meta: { name: 'install', description: COMMANDS.install },
  async run({ rawArgs }) {
    const { startup } = await import('./startup.ts');
    const { config, upstreamConfig, log } = await startup(rawArgs);
    const { installStealthBuild, nothingToInstall } = await import('./stealth-install.ts');
    const nothing = nothingToInstall(config);
    if (nothing !== undefined) {
      process.stderr.write(`install: ${nothing}.\n`);
      process.exitCode = 2;
      return;
    }
    await installStealthBuild(config, upstreamConfig, log);
  },
});
