import { helpSections, upstreamFlagsHelp } from '../config/reference.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';

export const COMMANDS = {
  serve: 'Run the MCP server (the default when no command is given)',
  doctor: 'Check the runtime, the embedded Playwright MCP and the browser binary; --json for machine-readable output',
  launcher: 'Container entrypoint: run the server (or the command given) as a child, start a virtual display on the first headed session, answer the private health socket',
  health: 'Ask the launcher whether the server (and its display) answer; exit 0 healthy, 1 not (the image HEALTHCHECK)',
  login: 'Save a licence key for keyed stealth builds: login [key] (prompts on a terminal); checks it with the vendor unless --no-verify',
  logout: 'Remove the saved licence key',
  install: 'Download and verify the stealth build into the cache now, as the first session would (image builds, offline machines); prints the executable',
  'install-browser': "Playwright MCP's `install-browser`: installs the browser this server runs (as `install`; with --browser-engine playwright, Playwright's installer, as the upstream runs it)",
  info: 'Show the stealth build cache, installed builds, the active one and the licence (masked); --json; no network',
} as const;

const NAME_WIDTH = Math.max(...Object.keys(COMMANDS).map((name) => name.length));

export function rootHelp(): string {
  return [
    `${PACKAGE_NAME} ${PACKAGE_VERSION}: an MCP server that gives AI agents a real (stealth) Chromium`,
    '',
    `Usage: ${PACKAGE_NAME} [command] [flags]`,
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, help]) => `  ${name.padEnd(NAME_WIDTH)} ${help}`),
    '',
    helpSections(),
    upstreamFlagsHelp(),
    'Booleans accept true/false, 1/0, yes/no, on/off; a bare --flag means true and --no-flag means false.',
    'Precedence: defaults < environment < flags; our own flags win over the same setting given by its',
    'Playwright MCP name. The PLAYWRIGHT_MCP_* variables and the --config file of Playwright MCP are',
    'honoured with their upstream meaning.',
    '',
    '  --help      Show this help',
    '  --version   Print the version',
    '',
  ].join('\n');
}

export function doctorHelp(): string {
  return [
    `Usage: ${PACKAGE_NAME} doctor [--json] [flags]`,
    '',
    COMMANDS.doctor + '. It starts no server and downloads nothing; exit 1 if any check fails.',
    'It accepts every server flag (see --help) to check that configuration.',
    '',
    '  --json   Print the report as JSON',
    '',
  ].join('\n');
}
