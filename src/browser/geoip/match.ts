import tzLookup from '@photostructure/tz-lookup';
import type { ProxySpec } from '../proxy/proxy-url.ts';
import { openGeoDatabase } from './database.ts';
import { findExitIp } from './exit-ip.ts';
import { localeForCountry } from './country-locale.ts';

export interface GeoMatch {
  exitIp: string;
  /** The IP-echo endpoint that answered. */
  endpoint: string;
  countryCode: string | null;
  city: string | null;
  timezone: string;
  locale: string;
  database: string;
  attribution: string | null;
}

export interface GeoOptions {
  proxy: ProxySpec | undefined;
  endpoints: string[];
  timeoutMs: number;
  database: string | undefined;
}

/**
 * Exit IP (through the proxy) → city database → timezone and locale. Throws
 * with the reason; whether that ends the session is the caller's choice.
 */
export async function matchGeo(options: GeoOptions): Promise<GeoMatch> {
  // Open the database first: a missing one is a setup error worth reporting
  // before any network traffic.
  const db = openGeoDatabase(options.database);
  const { ip, endpoint } = await findExitIp(options.proxy, options.endpoints, options.timeoutMs);
  const record = await db.lookup(ip);
  if (!record) throw new Error(`exit IP ${ip} (from ${endpoint}) is not in the GeoIP database ${db.source}`);
  const timezone = record.timezone ?? zoneAt(record.latitude, record.longitude);
  if (!timezone) throw new Error(`the GeoIP database ${db.source} has neither a timezone nor coordinates for exit IP ${ip}`);
  return {
    exitIp: ip,
    endpoint,
    countryCode: record.countryCode,
    city: record.city,
    timezone,
    locale: localeForCountry(record.countryCode),
    database: db.source,
    attribution: db.attribution,
  };
}

/** DB-IP Lite gives coordinates but no timezone: the zone at that point. */
function zoneAt(latitude: number | null, longitude: number | null): string | null {
  if (latitude === null || longitude === null) return null;
  try {
    return tzLookup(latitude, longitude);
  } catch {
    return null;
  }
}
