import { ConfigError, closest } from './config-error.ts';
import { settings, type SettingKey } from './settings.ts';

export interface FlagSpec {
  /** Flags of kind `bare` may appear without a value. */
  bare: boolean;
}

export type RawValues = Partial<Record<string, string>>;

const settingFlags = new Map<string, { key: string; spec: FlagSpec }>(
  Object.entries(settings).map(([key, s]) => [s.flag, { key, spec: { bare: s.kind.bare === true } }]),
);

/**
 * Reads `--flag value`, `--flag=value`, bare booleans and `--no-<flag>`.
 * Unlike citty's own parsing, an unknown flag is an error: a typo must never
 * silently fall back to a default.
 */
export function parseFlags(
  argv: readonly string[],
  commandFlags: Record<string, FlagSpec> = {},
): { settings: Partial<Record<SettingKey, string>>; command: RawValues } {
  const known = new Map(settingFlags);
  for (const [flag, spec] of Object.entries(commandFlags)) known.set(flag, { key: `command:${flag}`, spec });
  const out: { settings: Partial<Record<SettingKey, string>>; command: RawValues } = { settings: {}, command: {} };
  const put = (key: string, value: string) => {
    if (key.startsWith('command:')) out.command[key.slice('command:'.length)] = value;
    else out.settings[key as SettingKey] = value;
  };

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--')) throw new ConfigError(`Unexpected argument "${token}". Flags start with --; run --help for the list.`);
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const inline = eq === -1 ? undefined : token.slice(eq + 1);
    const entry = known.get(name);
    if (entry) {
      const next = argv[i + 1];
      const nextIsValue = next !== undefined && !next.startsWith('--');
      if (inline !== undefined) put(entry.key, inline);
      else if (nextIsValue) {
        // `--headless false` is common enough that a bare flag takes a following value too.
        put(entry.key, next);
        i++;
      } else if (entry.spec.bare) put(entry.key, 'true');
      else throw new ConfigError(`Flag --${name} needs a value; run --help to see what it accepts.`);
      continue;
    }
    const negated = name.startsWith('no-') ? known.get(name.slice(3)) : undefined;
    if (negated?.spec.bare && inline === undefined) {
      put(negated.key, 'false');
      continue;
    }
    const hint = closest(name, known.keys());
    throw new ConfigError(`Unknown flag --${name}.${hint ? ` Did you mean --${hint}?` : ''} Run --help for the list.`);
  }
  return out;
}
