import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

// Run by the orchestrator (HEALTHCHECK) inside the container: exit 0 when the
// launcher reports the server (and the display, if started) answering in time.
export default defineCommand({
  meta: { name: 'health', description: COMMANDS.health },
  async run({ rawArgs }) {
    const { parseFlags } = await import('../config/flags.ts');
    const { loadConfig } = await import('../config/load.ts');
    const config = loadConfig(parseFlags(rawArgs).settings, process.env);
    const { askHealth } = await import('../container/health-command.ts');
    const result = await askHealth(config.healthSocket);
    process.stdout.write(`${result.summary}\n`);
    process.exit(result.healthy ? 0 : 1);
  },
});
