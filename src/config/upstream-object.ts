import * as v from 'valibot';
import { ConfigError } from './config-error.ts';
import { checkCaps } from './upstream-flags.ts';
import { settings } from './settings.ts';
import type { UpstreamConfig } from './upstream.ts';

// Playwright MCP's programmatic entry takes its config as an object, merged
// over the defaults the way the upstream merges a config file (mergeConfig in
// its config.ts, not exported): a key left undefined keeps the value below it,
// and the nested sections merge one level deep.

const defined = <T extends object>(o: T | undefined): Partial<T> => Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

const SECTIONS = ['console', 'network', 'server', 'snapshot', 'timeouts'] as const;

export function mergeUpstreamConfig(base: UpstreamConfig, overrides: UpstreamConfig): UpstreamConfig {
  const browser = {
    ...defined(base.browser),
    ...defined(overrides.browser),
    launchOptions: { ...defined(base.browser?.launchOptions), ...defined(overrides.browser?.launchOptions) },
    contextOptions: { ...defined(base.browser?.contextOptions), ...defined(overrides.browser?.contextOptions) },
  };
  const merged: Record<string, unknown> = { ...defined(base), ...defined(overrides), browser };
  for (const section of SECTIONS) merged[section] = { ...defined(base[section] as object | undefined), ...defined(overrides[section] as object | undefined) };
  return merged as UpstreamConfig;
}

// What the rest of the resolution cannot tell: the shape, capabilities the
// upstream would skip without a word, a browser other than Chromium.
const CONFIG = v.looseObject({
  capabilities: v.optional(v.array(v.string())),
  browser: v.optional(v.looseObject({ browserName: v.optional(v.string()), launchOptions: v.optional(v.looseObject({})), contextOptions: v.optional(v.looseObject({})) })),
});

/** The programmatic entry's config object, checked; a ConfigError names the key, the bad value and the fix. */
export function checkUpstreamObject(config: unknown): UpstreamConfig {
  const parsed = v.safeParse(CONFIG, config);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.map((p) => String(p.key)).join('.') || 'config';
    throw new ConfigError(`createConnection(${key === 'config' ? 'config' : `{ ${key} }`}): ${issue.message}. Fix: pass Playwright MCP's config object (@playwright/mcp's Config type), or nothing for the defaults.`);
  }
  const { capabilities, browser } = parsed.output;
  if (capabilities) checkCaps(capabilities.join(','), 'createConnection({ capabilities })');
  if (browser?.browserName && browser.browserName !== 'chromium')
    throw new ConfigError(`createConnection({ browser.browserName }) is ${browser.browserName}, but this server drives Chromium builds only (the engine is chosen by ${settings.browserEngine.env}). Fix: drop it, or use chromium.`);
  return config as UpstreamConfig;
}
