import crypto from 'node:crypto';
import type { Config } from '../config/settings.ts';
import { acceptLanguages } from './geoip/country-locale.ts';

// The stealth build's own fingerprint flags (research §1.6). A stock Chromium
// ignores switches it does not know, so a custom binary still starts with them.
export interface StealthProfile {
  /** One identity per session: the same seed for every relaunch in it. */
  seed: number;
  platform: 'windows' | 'macos';
  timezone: string | null;
  locale: string | null;
  args: string[];
  /** For the browser process: TZ, for a stock Chromium behind --binary-path (it ignores the fingerprint switches). */
  env: Record<string, string>;
}

/**
 * The platform a user agent the user set names, where the build can present
 * it. Playwright gives the page that user agent and its client hints (macOS
 * for a Mac's), but the build's own navigator.platform, GPU strings and fonts
 * follow --fingerprint-platform: left at Windows they contradict the user
 * agent (fpscanner's hasPlatformMismatch, "high"). A phone's or Linux's user
 * agent has no build platform to match.
 */
function platformOfUserAgent(userAgent: string | undefined): StealthProfile['platform'] | undefined {
  if (!userAgent || /\b(iPhone|iPad|iPod|Android)\b/.test(userAgent)) return undefined;
  if (/\bWindows NT\b/.test(userAgent)) return 'windows';
  if (/\bMacintosh\b/.test(userAgent)) return 'macos';
  return undefined;
}

/** `seed`: drawn ahead when Chromium was started before the plan existed (spawn-ahead), else fresh. */
export function stealthProfile(config: Config, context: { locale?: string; timezoneId?: string; userAgent?: string }, seed = crypto.randomInt(10_000, 100_000)): StealthProfile | null {
  if (config.browserEngine !== 'stealth' || !config.stealthArgs) return null;
  // The vendor presents Linux and Windows hosts as Windows, macOS as macOS.
  const platform = platformOfUserAgent(context.userAgent) ?? (process.platform === 'darwin' ? 'macos' : 'windows');
  const args = [`--fingerprint=${seed}`, `--fingerprint-platform=${platform}`];
  const identity = identitySwitches(context.timezoneId ?? null, context.locale ?? null);
  return { seed, platform, timezone: context.timezoneId ?? null, locale: context.locale ?? null, args: [...args, ...identity.args], env: identity.env };
}

/**
 * A timezone and locale on the stealth engine (explicit, or from a GeoIP
 * match): through the build's flags, not CDP emulation, which is what
 * detectors look for; TZ and --accept-lang do the same for a stock Chromium,
 * which ignores the fingerprint switches (and --lang on Linux).
 */
export function identitySwitches(timezone: string | null, locale: string | null): { args: string[]; env: Record<string, string> } {
  const args: string[] = [];
  const env: Record<string, string> = {};
  if (timezone) {
    args.push(`--fingerprint-timezone=${timezone}`);
    env.TZ = timezone;
  }
  if (locale) args.push(`--lang=${locale}`, `--fingerprint-locale=${locale}`, `--accept-lang=${acceptLanguages(locale)}`);
  return { args, env };
}

/** Later lists win per switch name (the part before `=`): defaults < user args. */
export function mergeArgs(...lists: string[][]): string[] {
  const byKey = new Map<string, string>();
  for (const list of lists) for (const arg of list) {
    const key = arg.split('=')[0]!;
    byKey.delete(key);
    byKey.set(key, arg);
  }
  return [...byKey.values()];
}
