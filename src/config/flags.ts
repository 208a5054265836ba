import { ConfigError, closest } from './config-error.ts';
import { settings, type SettingKey } from './settings.ts';
import { checkCaps, formerCapsNote, UPSTREAM_FLAGS, type UpstreamFlagUse } from './upstream-flags.ts';

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
): { settings: Partial<Record<SettingKey, string>>; command: RawValues; upstream: UpstreamFlagUse } {
  const known = new Map(settingFlags);
  for (const [flag, spec] of Object.entries(commandFlags)) known.set(flag, { key: `command:${flag}`, spec });
  const out: { settings: Partial<Record<SettingKey, string>>; command: RawValues; upstream: UpstreamFlagUse } = {
    settings: {},
    command: {},
    upstream: { argv: [], settings: {}, notes: [] },
  };
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
    const upstream = UPSTREAM_FLAGS[name];
    if (upstream) {
      i = takeUpstreamFlag(name, inline, argv, i, out.upstream);
      continue;
    }
    const hint = closest(name, [...known.keys(), ...Object.keys(UPSTREAM_FLAGS)]);
    throw new ConfigError(`Unknown flag --${name}.${hint ? ` Did you mean --${hint}?` : ''} Run --help for the list.`);
  }
  // Our own flags win over the same setting given by its upstream name.
  out.settings = { ...out.upstream.settings, ...out.settings };
  return out;
}

/** Reads one upstream flag (and its values) at argv[i]; returns the index of its last token. */
function takeUpstreamFlag(name: string, inline: string | undefined, argv: readonly string[], i: number, use: UpstreamFlagUse): number {
  const { arity, does } = UPSTREAM_FLAGS[name]!;
  const values: string[] = inline === undefined ? [] : [inline];
  if (arity === 'none' && inline !== undefined) throw new ConfigError(`Flag --${name} takes no value (got "${inline}"). Fix: write --${name} alone.`);
  if (arity === 'one' && inline === undefined) {
    if (argv[i + 1] === undefined) throw new ConfigError(`Flag --${name} needs a value; run --help to see what it accepts.`);
    values.push(argv[++i]!);
  }
  if (arity === 'variadic') {
    while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) values.push(argv[++i]!);
    if (!values.length) throw new ConfigError(`Flag --${name} needs at least one value; run --help to see what it accepts.`);
  }
  if (does.kind === 'refuse') throw new ConfigError(`--${name} is a Playwright MCP flag this server cannot honour: ${does.reason}.`);
  if (does.kind === 'accept') use.notes.push(`--${name} is accepted for compatibility, but ${does.note}.`);
  if (does.kind === 'ours') {
    use.settings[does.setting] = does.value ? does.value(values.join(',')) : values.length ? values.join(',') : 'true';
    for (const [key, value] of Object.entries(does.also ?? {})) use.settings[key as SettingKey] ??= value;
  }
  if (does.kind === 'pass') {
    if (name === 'caps') use.notes.push(...formerCapsNote(checkCaps(values.join(','), '--caps'), '--caps'));
    use.argv.push(`--${name}`, ...values);
  }
  return i;
}
