import * as v from 'valibot';
import { ConfigError, closest, describeValue } from './config-error.ts';
import { settings, type Config, type Setting, type SettingKey } from './settings.ts';

export type Env = Record<string, string | undefined>;

const OWN_ENV_PREFIXES = ['STEALTH_PLAYWRIGHT_MCP_', 'STEALTH_'];

/** Precedence: defaults < env < flags. An empty env var counts as unset. */
export function loadConfig(flags: Partial<Record<SettingKey, string>>, env: Env): Config {
  const config: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(settings) as [SettingKey, Setting<unknown>][]) {
    const fromFlag = flags[key];
    const fromEnv = env[s.env] === '' ? undefined : env[s.env];
    const [raw, source] =
      fromFlag !== undefined ? [fromFlag, `--${s.flag}`]
      : fromEnv !== undefined ? [fromEnv, s.env]
      : [s.default, `the default of ${s.env}`];
    config[key] = raw === undefined ? undefined : parseSetting(s, raw, source);
  }
  checkTogether(config as Config);
  return config as Config;
}

type Parsable<T> = Pick<Setting<T>, 'kind' | 'env' | 'secret' | 'default'> & { flag?: string };

/** The value, or a ConfigError naming the source, the value and the fix (by default: set or unset the flag or variable). */
export function parseSetting<T>(s: Parsable<T>, raw: string, source: string, fix?: string): T {
  const result = v.safeParse(s.kind.schema, raw);
  if (result.success) return result.output;
  const names = s.flag ? `${s.env} or --${s.flag}` : s.env;
  const why = s.kind.detail ? ` (${result.issues[0].message})` : '';
  throw new ConfigError(
    `Invalid value for ${source}: ${describeValue(raw, s.secret)}${why}. Expected ${s.kind.accepts}. ` +
      `Fix: ${fix ?? `set ${names} to an accepted value, or unset it to use the default${s.default === undefined ? '' : ` (${s.default})`}`}.`,
  );
}

/** Our own variables that no setting reads: almost always a typo. */
export function unknownOwnEnv(env: Env): string[] {
  const known = new Set(Object.values(settings).map((s) => s.env));
  // STEALTH_TEST_* belong to the test suite (src/browser/build-store/test-overrides.ts).
  const ignored = new Set<string>();
  return Object.keys(env)
    .filter((name) => OWN_ENV_PREFIXES.some((p) => name.startsWith(p)) && !known.has(name) && !ignored.has(name) && !name.startsWith('STEALTH_TEST_'))
    .map((name) => {
      const hint = closest(name, known);
      return `${name} is not a setting of this server${hint ? ` (did you mean ${hint}?)` : ''}; it is ignored.`;
    });
}

/** Rules that tie two settings together. */
function checkTogether(config: Config): void {
  if (!config.consoleCapture && (!config.quietRuntime || config.browserEngine !== 'stealth'))
    throw new ConfigError(
      `--console-capture (${settings.consoleCapture.env}) is false, but ${config.browserEngine !== 'stealth' ? `--browser-engine is ${config.browserEngine}` : '--quiet-runtime is false'}: only the quiet runtime of the stealth engine can leave a page's console unread (with Playwright's own Runtime domain, every logged value is described as it is logged). Fix: drop --console-capture=false, or use the stealth engine with --quiet-runtime.`,
    );
  if (config.httpPrewarm > config.httpSessionMax)
    throw new ConfigError(
      `--http-prewarm (${settings.httpPrewarm.env}) is ${config.httpPrewarm}, more than --http-session-max (${config.httpSessionMax}): warm browsers are sessions-to-be and count against the cap. Fix: lower --http-prewarm or raise --http-session-max.`,
    );
}
