import { defineCommand } from 'citty';
import type { BuildInfo } from '../browser/build-info.ts';
import { COMMANDS } from './usage.ts';

const FLAGS = { json: { bare: true } };

function render(info: BuildInfo): string {
  const lines = [
    `cache:     ${info.cacheDir}`,
    `platform:  ${'tag' in info.platform ? `${info.platform.tag} (${info.platform.os} ${info.platform.arch})` : info.platform.error}`,
    `pinned:    ${info.pinned ? `${info.pinned.version} (keyless)` : '-'}; build tier in use: ${info.tier ?? '-'}`,
    `active:    ${info.active ? `${info.active.version ?? '(version read at launch)'} at ${info.active.path} (${info.active.source})` : 'none installed yet: the first browser launch downloads it'}`,
    `download:  ${info.update.downloadFrom ?? '-'} (auto-update off; available offline: ${info.update.availableOffline ? 'yes' : 'no'})`,
    `licence:   ${info.licence.key ? `${info.licence.key} from ${info.licence.source === 'file' ? info.licenceFile : 'STEALTH_LICENSE_KEY / --license-key'}` : 'none (keyless build)'}`,
    'installed:',
    ...(info.installed.length
      ? info.installed.map((b) => `  ${b.version} ${b.platform} ${b.tier}  verified ${b.verification}  ${b.installedAt}  ${b.dir}`)
      : ['  (none)']),
  ];
  return `${lines.join('\n')}\n`;
}

export default defineCommand({
  meta: { name: 'info', description: COMMANDS.info },
  async run({ rawArgs }) {
    const { startup } = await import('./startup.ts');
    const { config, commandFlags } = await startup(rawArgs, FLAGS);
    const { buildInfo } = await import('../browser/build-info.ts');
    const info = await buildInfo(config, process.env);
    process.stdout.write(commandFlags.json === 'true' ? `${JSON.stringify(info, null, 2)}\n` : render(info));
  },
});
