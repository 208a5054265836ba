import { runCommand } from 'citty';
import { ConfigError, EXIT_USAGE } from '../config/config-error.ts';
import { settings } from '../config/settings.ts';
import { UPSTREAM_FLAGS } from '../config/upstream-flags.ts';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';
import { root } from './root.ts';
import { COMMANDS, doctorHelp, rootHelp } from './usage.ts';

// citty's runMain prints raw stacks for every error; ours prints a fixable
// message for usage errors and keeps stacks for real bugs.
export async function runCli(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(argv[0] === 'doctor' ? doctorHelp() : rootHelp());
    return;
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return;
  }
  try {
    await runCommand(root, { rawArgs: commandFirst(argv) });
  } catch (error) {
    fail(error);
  }
}

// citty hands a subcommand only the flags after its name, and takes any bare
// word for a command name; flags may come before the name too
// (`--browser-engine playwright doctor`), so put the name first, or `serve`.
function commandFirst(argv: string[]): string[] {
  const index = commandIndex(argv);
  if (index === -1) return ['serve', ...argv];
  return [argv[index]!, ...argv.slice(0, index), ...argv.slice(index + 1)];
}

// The first bare word that is not a flag's value (`--console-level info` is not the info command).
function commandIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--')) return token in COMMANDS ? i : -1;
    if (token.includes('=')) continue;
    const name = token.slice(2);
    const own = Object.values(settings).find((s) => s.flag === name);
    const upstream = UPSTREAM_FLAGS[name];
    if (own && !own.kind.bare) i++;
    else if (upstream?.arity === 'one') i++;
    else if (upstream?.arity === 'variadic') while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) i++;
  }
  return -1;
}

function fail(error: unknown): never {
  const usage = error instanceof ConfigError || (error instanceof Error && error.name === 'CLIError');
  if (usage) {
    process.stderr.write(`${PACKAGE_NAME}: ${(error as Error).message}\n`);
    process.exit(EXIT_USAGE);
  }
  // Download, verification and licence failures, and refused sessions, carry their own fix.
  if (error instanceof Error && (error.name === 'BuildStoreError' || error.name === 'SessionRefused')) {
    process.stderr.write(`${PACKAGE_NAME}: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${PACKAGE_NAME}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
