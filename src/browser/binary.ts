import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { ConfigError } from '../config/config-error.ts';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import { assertRunnable, findOnPath, probeVersion, unwrapLauncher } from './executable-checks.ts';

export type BinarySource = 'custom' | 'cache' | 'playwright' | 'system';

/** What `stealth_binary_info` and `doctor` report, and what the launcher runs. */
export interface BrowserBinary {
  engine: Config['browserEngine'];
  executablePath: string;
  version: string;
  versionOutput: string;
  source: BinarySource;
  cacheDir: string;
  /** A managed stealth build is present in the cache. */
  installed: boolean;
}

const SYSTEM_CHROMIUMS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

async function locate(config: Config, upstream: UpstreamConfig): Promise<{ file: string; source: BinarySource; origin: string; fix: string }> {
  if (config.binaryPath) {
    return { file: config.binaryPath, source: 'custom', origin: '--binary-path (STEALTH_BINARY_PATH)', fix: 'point --binary-path at a Chromium executable, or unset it.' };
  }
  const upstreamPath = upstream.browser?.launchOptions?.executablePath;
  if (config.browserEngine === 'stealth') {
    if (upstreamPath)
      throw new ConfigError('PLAYWRIGHT_MCP_EXECUTABLE_PATH is set, but the stealth engine takes its binary from --binary-path (STEALTH_BINARY_PATH). Fix: move the path to STEALTH_BINARY_PATH, or use --browser-engine playwright.');
    throw new ConfigError(
      `The stealth engine needs the stealth Chromium build, which is not installed in ${config.cacheDir}, and this version of ` +
        'stealth-playwright-mcp cannot download it yet. Fix: pass --binary-path <chromium executable> (STEALTH_BINARY_PATH), ' +
        'or use --browser-engine playwright for stock Chromium.',
    );
  }
  if (upstreamPath)
    return { file: upstreamPath, source: 'custom', origin: 'PLAYWRIGHT_MCP_EXECUTABLE_PATH', fix: 'point it at a Chromium executable, or unset it.' };
  const installed = chromium.executablePath();
  if (installed && fs.existsSync(installed))
    return { file: installed, source: 'playwright', origin: "Playwright's installed Chromium", fix: 'reinstall it, or install Debian\'s chromium.' };
  const onPath = await findOnPath(SYSTEM_CHROMIUMS);
  if (!onPath)
    throw new ConfigError(
      `The playwright engine found no Chromium: none installed by Playwright and none of ${SYSTEM_CHROMIUMS.join(', ')} on PATH. ` +
        'Fix: install one (Debian: apt-get install chromium), or pass --binary-path <chromium executable>.',
    );
  return { file: await unwrapLauncher(onPath), source: 'system', origin: `${onPath} (found on PATH)`, fix: 'reinstall it, or pass --binary-path <chromium executable>.' };
}

/** Finds the browser for the configured engine and checks, at startup, that it runs. */
export async function resolveBrowserBinary(config: Config, upstream: UpstreamConfig): Promise<BrowserBinary> {
  const { file, source, origin, fix } = await locate(config, upstream);
  await assertRunnable(file, origin, fix);
  const probe = await probeVersion(file, origin, fix);
  return {
    engine: config.browserEngine,
    executablePath: file,
    version: probe.version,
    versionOutput: probe.output,
    source,
    cacheDir: config.cacheDir,
    installed: false,
  };
}
