import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

export default defineCommand({
  meta: { name: 'logout', description: COMMANDS.logout },
  async run({ rawArgs }) {
    const { startup } = await import('./startup.ts');
    const { config } = await startup(rawArgs);
    const { removeLicence } = await import('../browser/licence.ts');
    const { file, removed } = await removeLicence(config.cacheDir);
    process.stdout.write(removed ? `Removed the saved licence ${file}\n` : `No saved licence at ${file}; nothing to do\n`);
    if (config.licenseKey) process.stderr.write('Note: STEALTH_LICENSE_KEY (or --license-key) is still set and is still used.\n');
  },
});
