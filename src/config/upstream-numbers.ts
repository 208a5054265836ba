import { ConfigError } from './config-error.ts';

// The upstream's numeric settings (timeouts, sizes): its flag parser turns
// `--idle-timeout abc` into NaN and its config file loader takes
// `"timeouts": {"idle": "x"}` as it is, and both run on without a word (a
// NaN timeout never fires). Here a value that is not a whole number from 0 up
// stops the start, naming where it came from. (PLAYWRIGHT_MCP_* variables are
// checked as they are read: upstream.ts.)

interface NumericSetting {
  /** Commander's attribute name. */
  option: string;
  flag: string;
  /** Path in the config file / resolved config. */
  key: string;
}

const NUMERIC: NumericSetting[] = [
  { option: 'cdpTimeout', flag: '--cdp-timeout', key: 'browser.cdpTimeout' },
  { option: 'idleTimeout', flag: '--idle-timeout', key: 'timeouts.idle' },
  { option: 'outputMaxSize', flag: '--output-max-size', key: 'outputMaxSize' },
  { option: 'timeoutAction', flag: '--timeout-action', key: 'timeouts.action' },
  { option: 'timeoutNavigation', flag: '--timeout-navigation', key: 'timeouts.navigation' },
  { option: 'timeoutSettle', flag: '--timeout-settle', key: 'timeouts.settle' },
];

const valid = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);

/** What the user typed after a flag (`--flag value` or `--flag=value`). */
function typed(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === flag) return argv[i + 1];
    if (argv[i]!.startsWith(`${flag}=`)) return argv[i]!.slice(flag.length + 1);
  }
  return undefined;
}

/** The upstream's numeric flags, as its parser read them. */
export function checkNumericFlags(options: Record<string, unknown>, argv: readonly string[]): void {
  for (const { option, flag } of NUMERIC)
    if (!valid(options[option]))
      throw new ConfigError(`Invalid value for ${flag}: ${JSON.stringify(typed(argv, flag) ?? String(options[option]))}. Expected a whole number from 0 (milliseconds, or bytes for --output-max-size). Fix: correct the flag, or drop it to use the default.`);
}

/** The same settings once resolved (flags, env and config file merged): a bad one came from the config file. */
export function checkNumericConfig(resolved: object, configFile: string | undefined): void {
  for (const { key } of NUMERIC) {
    const value = key.split('.').reduce<unknown>((at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), resolved);
    if (!valid(value))
      throw new ConfigError(`Invalid value for ${key}${configFile ? ` in the config file ${configFile}` : ''}: ${JSON.stringify(value)}. Expected a whole number from 0. Fix: correct it, or remove it to use the default.`);
  }
}
