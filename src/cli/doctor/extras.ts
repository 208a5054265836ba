import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openGeoDatabase } from '../../browser/geoip/database.ts';
import type { Config } from '../../config/settings.ts';
import type { PackageReport } from './packages.ts';

export interface ExtraCheck {
  name: string;
  status: 'ok' | 'warn' | 'error';
  message: string;
  hint?: string;
}

/** The upstream MCP CLI this bridge embeds: what `npx @playwright/mcp` of the same version runs. */
export function upstreamCliCheck(packages: PackageReport): ExtraCheck {
  if (packages.embedded) return { name: 'upstream-cli', status: 'ok', message: `@playwright/mcp ${packages.upstream.version} (compiled into this binary; its CLI flags are accepted here)` };
  const cli = packages.upstream.path ? path.join(packages.upstream.path, 'cli.js') : null;
  if (!cli || !fs.existsSync(cli)) return { name: 'upstream-cli', status: 'error', message: '@playwright/mcp cli.js not found', hint: 'Reinstall the package (npm ci).' };
  return { name: 'upstream-cli', status: 'ok', message: `@playwright/mcp ${packages.upstream.version} at ${cli} (effective upstream MCP CLI; its flags are accepted here)` };
}

// Playwright's ffmpeg (video recording) lives in its browser cache, at the revision its browsers.json pins.
const FFMPEG_REVISION = '1011';

export function ffmpegCheck(env: NodeJS.ProcessEnv = process.env): ExtraCheck {
  const root = env.PLAYWRIGHT_BROWSERS_PATH || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'ms-playwright');
  const file = path.join(root, `ffmpeg-${FFMPEG_REVISION}`, process.platform === 'darwin' ? 'ffmpeg-mac' : 'ffmpeg-linux');
  if (fs.existsSync(file)) return { name: 'video', status: 'ok', message: `Playwright's ffmpeg at ${file}` };
  return {
    name: 'video',
    status: 'warn',
    message: `Playwright's ffmpeg is not installed (${file}): browser_start_video and --save-video cannot record`,
    hint: 'Install it with `npx playwright install ffmpeg` (downloads from Playwright\'s CDN); everything else works without it.',
  };
}

export function geoipCheck(config: Pick<Config, 'geoipProxyMatch' | 'geoipDb'>): ExtraCheck | undefined {
  if (!config.geoipProxyMatch && !config.geoipDb) return undefined;
  try {
    const db = openGeoDatabase(config.geoipDb);
    return { name: 'geoip', status: 'ok', message: `GeoIP database ${db.source} (${db.attribution})` };
  } catch (error) {
    return { name: 'geoip', status: config.geoipProxyMatch ? 'error' : 'warn', message: (error as Error).message, hint: 'Point --geoip-db at a MaxMind/DB-IP city database (.mmdb).' };
  }
}
