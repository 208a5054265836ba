import crypto from 'node:crypto';
import type { Config } from '../config/settings.ts';

// The stealth build's own fingerprint flags (research §1.6). A stock Chromium
// ignores switches it does not know, so a custom binary still starts with them.
export interface StealthProfile {
  /** One identity per session: the same seed for every relaunch in it. */
  seed: number;
  platform: 'windows' | 'macos';
  timezone: string | null;
  locale: string | null;
  args: string[];
}

/** `seed`: drawn ahead when Chromium was started before the plan existed (spawn-ahead), else fresh. */
export function stealthProfile(config: Config, context: { locale?: string; timezoneId?: string }, seed = crypto.randomInt(10_000, 100_000)): StealthProfile | null {
  if (config.browserEngine !== 'stealth' || !config.stealthArgs) return null;
  // The vendor presents Linux and Windows hosts as Windows, macOS as macOS.
  const platform = process.platform === 'darwin' ? 'macos' : 'windows';
  const args = [`--fingerprint=${seed}`, `--fingerprint-platform=${platform}`];
  // Through flags, not CDP emulation: emulation is what detectors look for.
  if (context.timezoneId) args.push(`--fingerprint-timezone=${context.timezoneId}`);
  if (context.locale) args.push(`--lang=${context.locale}`, `--fingerprint-locale=${context.locale}`);
  return { seed, platform, timezone: context.timezoneId ?? null, locale: context.locale ?? null, args };
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
