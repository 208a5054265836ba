import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

// The container entrypoint. Its arguments are the server's (`launcher
// --transport streamable-http`), or another command to run under it
// (`launcher doctor`); it reads only its own settings from them.
export default defineCommand({
  meta: { name: 'launcher', description: COMMANDS.launcher },
  async run({ rawArgs }) {
    const { ConfigError } = await import('../config/config-error.ts');
    if (rawArgs.includes('launcher')) throw new ConfigError('`launcher` cannot run another launcher. Fix: drop the second `launcher` from the arguments.');
    const { parseFlags } = await import('../config/flags.ts');
    const { loadConfig } = await import('../config/load.ts');
    const { createLogger } = await import('../log.ts');
    // Another command (doctor, info, …) brings flags of its own; its child validates them.
    const other = rawArgs.some((token) => token in COMMANDS && token !== 'serve');
    const flags = other ? {} : parseFlags(rawArgs.filter((token) => token !== 'serve')).settings;
    const config = loadConfig(flags, process.env);
    const log = createLogger(config.logLevel, config.logFormat);
    const { runLauncher } = await import('../container/launcher.ts');
    process.exit(await runLauncher(rawArgs, config, log));
  },
});
