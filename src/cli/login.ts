import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

const FLAGS = { verify: { bare: true } };

/** Reads a line from the terminal without echoing it (the prompt goes to stderr). */
async function promptHidden(question: string): Promise<string> {
  const readline = await import('node:readline');
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  process.stderr.write(question);
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  try {
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

export default defineCommand({
  meta: { name: 'login', description: COMMANDS.login },
  async run({ rawArgs }) {
    const { ConfigError } = await import('../config/config-error.ts');
    const { splitPositionals } = await import('./positional.ts');
    const { positionals, flags } = splitPositionals(rawArgs, FLAGS);
    if (positionals.length > 1) throw new ConfigError('login takes one key. Usage: stealth-playwright-mcp login [key] [--no-verify]');
    const { startup } = await import('./startup.ts');
    const { config, commandFlags } = await startup(flags, FLAGS);
    let raw = positionals[0];
    if (raw === undefined) {
      if (!process.stdin.isTTY)
        throw new ConfigError('login needs the key as an argument when stdin is not a terminal. Fix: stealth-playwright-mcp login <key>, or set STEALTH_LICENSE_KEY instead.');
      raw = await promptHidden('Licence key (input hidden): ');
    }
    const { parseSetting } = await import('../config/load.ts');
    const { licenceKey } = await import('../config/build-kinds.ts');
    const key = parseSetting({ env: 'the login key', kind: licenceKey, secret: true }, raw, 'the login key');
    const { maskKey, saveLicence, validateLicence } = await import('../browser/licence.ts');
    let plan = '';
    if (commandFlags.verify !== 'false') {
      const { readTestOverrides } = await import('../browser/build-store/test-overrides.ts');
      const { VENDOR_ORIGIN } = await import('../browser/build-store/vendor.ts');
      const origin = readTestOverrides(process.env).vendorOrigin ?? VENDOR_ORIGIN;
      let result;
      try {
        result = await validateLicence(key, origin);
      } catch (error) {
        (error as Error).message += ' To save the key without checking it, run login again with --no-verify.';
        throw error;
      }
      if (!result.valid)
        throw new ConfigError(`The vendor says the key ${maskKey(key)} is not valid${result.expires ? ` (expires ${result.expires})` : ''}. Fix: check the key, or renew the licence; nothing was saved.`);
      plan = ` (plan ${result.plan ?? 'unknown'}${result.expires ? `, expires ${result.expires}` : ''})`;
    }
    const file = await saveLicence(config.cacheDir, key);
    process.stdout.write(`Saved licence ${maskKey(key)}${plan}${commandFlags.verify === 'false' ? ' without checking it' : ''} to ${file}\n`);
    if (config.licenseKey) process.stderr.write('Note: STEALTH_LICENSE_KEY (or --license-key) is set and takes precedence over the saved key.\n');
  },
});
