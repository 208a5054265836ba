import { boolean, filePath, oneOf } from '../kinds.ts';
import { httpUrl, licenceKey, sha256Hex } from '../build-kinds.ts';
import { setting } from './setting.ts';

// The browser: engine, binary, build store and launch.
export const browserSettings = {
  browserEngine: setting({
    flag: 'browser-engine',
    env: 'PLAYWRIGHT_MCP_BROWSER_ENGINE',
    kind: oneOf(['stealth', 'playwright']),
    default: 'stealth',
    help: 'Browser to drive: `stealth` (the stealth Chromium build) or `playwright` (stock Chromium: Playwright\'s installed one, else chromium/google-chrome on PATH)',
    section: 'browser',
  }),
  headless: setting({
    flag: 'headless',
    env: 'PLAYWRIGHT_MCP_HEADLESS',
    kind: boolean,
    default: 'true',
    help: 'Run the browser without a window',
    section: 'browser',
  }),
  binaryPath: setting({
    flag: 'binary-path',
    env: 'STEALTH_BINARY_PATH',
    kind: filePath,
    help: 'Use this Chromium executable for the stealth engine instead of the managed build',
    section: 'browser',
  }),
  cacheDir: setting({
    flag: 'cache-dir',
    env: 'STEALTH_CACHE_DIR',
    kind: filePath,
    default: '~/.stealth',
    help: 'Where stealth builds are cached',
    section: 'browser',
  }),
  noSandbox: setting({
    flag: 'no-sandbox',
    env: 'STEALTH_PLAYWRIGHT_MCP_NO_SANDBOX',
    kind: boolean,
    default: 'true',
    help: 'Run Chromium without its OS sandbox (needed as root and in most containers)',
    section: 'browser',
  }),
  downloadUrl: setting({
    flag: 'download-url',
    env: 'STEALTH_DOWNLOAD_URL',
    kind: httpUrl,
    help: 'Mirror base for the stealth build (serves `/chromium-v<version>/<archive>`, `SHA256SUMS` and `SHA256SUMS.sig` like the vendor); the licence key is never sent to it',
    section: 'browser',
  }),
  downloadSha256: setting({
    flag: 'download-sha256',
    env: 'STEALTH_DOWNLOAD_SHA256',
    kind: sha256Hex,
    help: 'SHA-256 the build archive must have; lets a mirror without a vendor signature be used',
    section: 'browser',
  }),
  insecureUnverifiedDownload: setting({
    flag: 'insecure-unverified-download',
    env: 'STEALTH_INSECURE_UNVERIFIED_DOWNLOAD',
    kind: boolean,
    default: 'false',
    help: 'DANGER: install a mirror build with no signature and no --download-sha256 (recorded as `verification: none`)',
    section: 'browser',
  }),
  licenseKey: setting({
    flag: 'license-key',
    env: 'STEALTH_LICENSE_KEY',
    kind: licenceKey,
    secret: true,
    help: 'Licence key for keyed stealth builds (prefer the env var or `login`: flags show in `ps`); else `<cache-dir>/license.key`',
    section: 'browser',
  }),
  stealthArgs: setting({
    flag: 'stealth-args',
    env: 'STEALTH_PLAYWRIGHT_MCP_STEALTH_ARGS',
    kind: boolean,
    default: 'true',
    help: 'Stealth engine: pass the build its fingerprint flags (a seed per session, platform, timezone/locale)',
    section: 'browser',
  }),
  consoleFallback: setting({
    flag: 'console-fallback',
    env: 'STEALTH_PLAYWRIGHT_MCP_CONSOLE_FALLBACK',
    kind: boolean,
    default: 'true',
    help: 'Stealth engine: record console messages in the page, for `browser_console_messages` when the build hides them from the driver',
    section: 'browser',
  }),
};
