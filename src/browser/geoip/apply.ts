import type { LaunchPlan } from '../launch-options.ts';
import type { LaunchExtras } from '../launch-extras.ts';
import { identitySwitches } from '../stealth-profile.ts';
import type { GeoMatch } from './match.ts';

export interface AppliedGeo {
  timezone: string | null;
  locale: string | null;
  webrtcIp: string | null;
  /** What an explicit setting kept (an explicit timezone or locale always wins). */
  keptExplicit: string[];
}

/**
 * The stealth engine gets the match as the build's own switches, never CDP
 * emulation: --fingerprint-timezone, --lang/--fingerprint-locale, and
 * --fingerprint-webrtc-ip on stealth builds. TZ and --accept-lang do the same
 * for a stock Chromium behind --binary-path (it ignores the fingerprint
 * switches, and --lang on Linux). The stock engine takes context options.
 */
export function applyGeo(match: GeoMatch, plan: LaunchPlan, extras: LaunchExtras, stealthBuild: boolean): AppliedGeo {
  const explicitTimezone = plan.stealth?.timezone ?? plan.context.timezoneId ?? null;
  const explicitLocale = plan.stealth?.locale ?? plan.context.locale ?? null;
  const keptExplicit = [...(explicitTimezone ? ['timezone'] : []), ...(explicitLocale ? ['locale'] : [])];
  const timezone = explicitTimezone ? null : match.timezone;
  const locale = explicitLocale ? null : match.locale;
  let webrtcIp: string | null = null;
  if (plan.stealth) {
    const identity = identitySwitches(timezone, locale);
    extras.args.push(...identity.args);
    Object.assign(extras.env, identity.env);
    if (stealthBuild) {
      webrtcIp = match.exitIp;
      extras.args.push(`--fingerprint-webrtc-ip=${match.exitIp}`);
    }
  } else {
    if (timezone) extras.context.timezoneId = timezone;
    if (locale) extras.context.locale = locale;
  }
  return { timezone, locale, webrtcIp, keptExplicit };
}
