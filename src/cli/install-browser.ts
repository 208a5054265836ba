import { defineCommand } from 'citty';
import { COMMANDS } from './usage.ts';

// `npx @playwright/mcp install-browser [browser...] [--with-deps ...]` runs
// Playwright's browser installer; Dockerfiles and setup scripts keep that
// line. Here it installs the browser this server runs: the stealth build (as
// `install`), or, with --browser-engine playwright, Playwright's own, through
// the installer the upstream runs, with its flags (read from that installer,
// not copied). A setup step never fails for want of a download: with
// --binary-path there is nothing to fetch, and that is said.

interface CommanderLike {
  commands: { name(): string; options: { long?: string; required: boolean; optional: boolean }[] }[];
  parseAsync(argv: string[]): Promise<unknown>;
}
interface LibCli {
  decorateProgram(program: CommanderLike): void;
}

// Chromium names of Playwright's installer beyond the --browser values (config/upstream.ts).
const INSTALLER_CHROMIUM = /^(chromium-headless-shell|chrome-for-testing)$/;

async function playwrightInstaller(): Promise<{ program: CommanderLike; flags: Record<string, { bare: boolean }> }> {
  const { coreBundle, utilsBundle } = await import('../playwright-bundles.ts');
  const { libCli } = (await coreBundle()) as { libCli: LibCli };
  const { program } = (await utilsBundle()) as { program: CommanderLike & { constructor: new () => CommanderLike } };
  const fresh = new program.constructor();
  libCli.decorateProgram(fresh);
  const install = fresh.commands.find((c) => c.name() === 'install');
  const flags = Object.fromEntries((install?.options ?? []).filter((o) => o.long).map((o) => [o.long!.slice(2), { bare: !o.required && !o.optional }]));
  return { program: fresh, flags };
}

export default defineCommand({
  meta: { name: 'install-browser', description: COMMANDS['install-browser'] },
  async run({ rawArgs }) {
    const installer = await playwrightInstaller();
    const { splitPositionals } = await import('./positional.ts');
    const { positionals, flags } = splitPositionals(rawArgs, installer.flags);
    const { startup } = await import('./startup.ts');
    const { config, upstreamConfig, commandFlags, log } = await startup(flags, installer.flags);
    const installerFlags = Object.entries(commandFlags).flatMap(([name, value]) => (installer.flags[name]?.bare ? (value === 'true' ? [`--${name}`] : []) : [`--${name}`, value!]));
    if (config.browserEngine === 'playwright' && !config.binaryPath) {
      await installer.program.parseAsync([process.execPath, 'install-browser', 'install', ...positionals, ...installerFlags]);
      return;
    }
    const { installStealthBuild, nothingToInstall } = await import('./stealth-install.ts');
    const nothing = nothingToInstall(config);
    if (nothing !== undefined) {
      log.warn(`install-browser: ${nothing}.`);
      return;
    }
    const { CHROMIUM_FAMILY } = await import('../config/upstream.ts');
    const others = positionals.filter((name) => !CHROMIUM_FAMILY.test(name) && !INSTALLER_CHROMIUM.test(name));
    if (others.length) log.warn(`install-browser: ${others.join(', ')}: this server drives Chromium builds only; installing the stealth build.`);
    if (installerFlags.length) log.warn(`install-browser: ${installerFlags.join(' ')}: Playwright's installer flags, for its own browsers; the stealth build is fetched and verified as the first session would.`);
    await installStealthBuild(config, upstreamConfig, log);
  },
});
