import { settings } from '../config/settings.ts';

const BOOLEAN_WORDS = /^(true|false|1|0|yes|no|on|off)$/i;

/**
 * Splits `login [key] [flags]` into the positional words and the flags, using
 * the same rules as config/flags.ts (a value-taking flag consumes the next
 * word; a bare flag consumes it only if it is a boolean word).
 */
export function splitPositionals(argv: readonly string[], commandFlags: Record<string, { bare: boolean }>): { positionals: string[]; flags: string[] } {
  const bareByFlag = new Map<string, boolean>(Object.values(settings).map((s) => [s.flag, s.kind.bare === true]));
  for (const [flag, spec] of Object.entries(commandFlags)) bareByFlag.set(flag, spec.bare);
  const positionals: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--')) {
      positionals.push(token);
      continue;
    }
    flags.push(token);
    if (token.includes('=')) continue;
    const name = token.slice(2);
    const bare = bareByFlag.get(name) ?? (name.startsWith('no-') && bareByFlag.get(name.slice(3)) ? 'negated' : undefined);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--') || bare === 'negated' || bare === undefined) continue;
    if (bare === false || BOOLEAN_WORDS.test(next)) flags.push(argv[++i]!);
  }
  return { positionals, flags };
}
