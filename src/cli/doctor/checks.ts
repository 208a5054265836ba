import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import type { BrowserBinary } from '../../browser/binary.ts';
import { ConfigError } from '../../config/config-error.ts';
import { PACKAGE_NAME, PACKAGE_VERSION, UPSTREAM_VERSION } from '../../package-info.ts';
import { runtimeInfo, type RuntimeInfo } from '../../runtime.ts';
import type { Startup } from '../startup.ts';
import { resolvePackages, type PackageReport } from './packages.ts';
import { makeDir } from '../../fs/make-dir.ts';
import { ffmpegCheck, geoipCheck, upstreamCliCheck } from './extras.ts';

export type CheckStatus = 'ok' | 'warn' | 'error';

export interface Check {
  name: string;
  status: CheckStatus;
  message: string;
  hint?: string;
}

export interface DoctorReport {
  status: CheckStatus;
  package: { name: string; version: string };
  runtime: RuntimeInfo;
  packages: PackageReport;
  browser: BrowserBinary | null;
  checks: Check[];
}

const RANK: Record<CheckStatus, number> = { ok: 0, warn: 1, error: 2 };

function runtimeCheck(runtime: RuntimeInfo): Check {
  return runtime.supported
    ? { name: 'runtime', status: 'ok', message: `${runtime.name} ${runtime.version}` }
    : { name: 'runtime', status: 'error', message: `${runtime.name} ${runtime.version} is not supported (needs ${runtime.required})`, hint: 'Install Node 22.13+ or 24+, or use the standalone binary.' };
}

function upstreamCheck(packages: PackageReport): Check[] {
  const { upstream, upstreamCore, bridgeCore } = packages;
  const checks: Check[] = [];
  if (!upstream.version)
    checks.push({ name: 'upstream', status: 'error', message: '@playwright/mcp is not resolvable', hint: 'Reinstall the package (npm ci).' });
  else if (upstream.version !== UPSTREAM_VERSION)
    checks.push({ name: 'upstream', status: 'warn', message: `@playwright/mcp ${upstream.version} resolved, but this build was made for ${UPSTREAM_VERSION}`, hint: 'Reinstall the package (npm ci).' });
  else checks.push({ name: 'upstream', status: 'ok', message: `@playwright/mcp ${upstream.version} (${packages.embedded ? 'compiled into this binary' : `createConnection from ${packages.upstreamEntry ?? 'bundle'}`})` });
  if (upstreamCore.path && bridgeCore.path && upstreamCore.path !== bridgeCore.path)
    checks.push({ name: 'playwright-core', status: 'error', message: `two copies: the upstream runs ${upstreamCore.version} at ${upstreamCore.path}, the bridge ${bridgeCore.version} at ${bridgeCore.path}`, hint: 'Pin playwright-core to the exact version @playwright/mcp depends on, then reinstall.' });
  else checks.push({ name: 'playwright-core', status: upstreamCore.version ? 'ok' : 'error', message: upstreamCore.version ? `${upstreamCore.version}, one copy shared by the upstream and the bridge` : 'not resolvable', ...(upstreamCore.version ? {} : { hint: 'Reinstall the package (npm ci).' }) });
  return checks;
}

async function outputDirCheck(dir: string): Promise<Check> {
  try {
    await makeDir(dir);
    await fs.access(dir, constants.W_OK);
    return { name: 'output-dir', status: 'ok', message: `${dir} is writable` };
  } catch (error) {
    return { name: 'output-dir', status: 'error', message: `${dir} is not writable (${(error as Error).message})`, hint: 'Point --output-dir (PLAYWRIGHT_MCP_OUTPUT_DIR) at a writable directory.' };
  }
}

/** Never starts a bridge or downloads anything; only inspects. */
export async function runChecks(load: () => Promise<Startup>): Promise<DoctorReport> {
  const runtime = runtimeInfo();
  const packages = resolvePackages();
  const checks: Check[] = [runtimeCheck(runtime), ...upstreamCheck(packages), upstreamCliCheck(packages), ffmpegCheck()];
  let browser: BrowserBinary | null = null;
  try {
    const { config, upstreamConfig } = await load();
    checks.push({ name: 'config', status: 'ok', message: `engine ${config.browserEngine}, headless ${config.headless}` });
    checks.push(await outputDirCheck(config.outputDir));
    const geoip = geoipCheck(config);
    if (geoip) checks.push(geoip);
    const { resolveBrowserBinary } = await import('../../browser/binary.ts');
    try {
      browser = await resolveBrowserBinary(config, upstreamConfig);
      if (browser.executablePath)
        checks.push({ name: 'browser', status: 'ok', message: `${browser.versionOutput} at ${browser.executablePath} (${browser.source}${browser.build?.verification ? `, verified: ${browser.build.verification}` : ''})` });
      else
        checks.push({
          name: 'browser',
          status: 'warn',
          message: `the stealth build ${browser.build?.version ?? '(newest keyed)'} for ${browser.build?.platform} is not in ${browser.cacheDir} yet; the first browser launch downloads it from ${browser.build?.downloadFrom}`,
          hint: 'Nothing to do if this machine can reach that host; otherwise set --download-url to a mirror, pre-seed the cache, or pass --binary-path.',
        });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      checks.push({ name: 'browser', status: 'error', message: error.message });
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push({ name: 'config', status: 'error', message: error.message });
  }
  const status = checks.reduce<CheckStatus>((worst, c) => (RANK[c.status] > RANK[worst] ? c.status : worst), 'ok');
  return { status, package: { name: PACKAGE_NAME, version: PACKAGE_VERSION }, runtime, packages, browser, checks };
}
