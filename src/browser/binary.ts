import fs from 'node:fs';
import { chromium } from '../playwright-bundles.ts';
import { ConfigError } from '../config/config-error.ts';
import type { Env } from '../config/load.ts';
import type { Config } from '../config/settings.ts';
import type { UpstreamConfig } from '../config/upstream.ts';
import type { Logger } from '../log.ts';
import { redactUrl } from './build-store/errors.ts';
import { installBuild } from './build-store/install.ts';
import { findInstalled, type InstalledBuild } from './build-store/layout.ts';
import { resolvePlatform } from './build-store/platform.ts';
import { buildRequest, origins, type BuildRequest } from './build-store/release.ts';
import { readTestOverrides } from './build-store/test-overrides.ts';
import { BROWSER_LICENCE_ENV, PROVIDER } from './build-store/vendor.ts';
import path from 'node:path';
import { identifyStealthBuild, vendorInstalledBuild } from './build-identity.ts';
import { assertRunnable, findOnPath, probeVersion, unwrapLauncher } from './executable-checks.ts';
import { rememberedFact } from './executable-facts.ts';
import * as v from 'valibot';
import { licenceFacts, resolveLicence, type Licence } from './licence.ts';
import { LICENCE_STATUS_ENV, statusFileFor } from './licence-exit.ts';
import { checkKey } from './licence-check.ts';
import { SeatLedger } from './licence-seats.ts';

export type BinarySource = 'custom' | 'cache' | 'vendor-cache' | 'playwright' | 'system';

/** The managed stealth build: what is pinned, and what is installed. */
export interface BuildFacts {
  provider: string;
  platform: string;
  tier: 'keyless' | 'keyed';
  /** The pinned keyless version; for keyed builds the installed one (the vendor picks the newest). */
  version: string | null;
  installDir: string | null;
  verification: string | null;
  keyId: string | null;
  archiveSha256: string | null;
  installedAt: string | null;
  /** Where a download would come from (no credentials). */
  downloadFrom: string | null;
}

/**
 * What `stealth_binary_info`, `doctor` and `info` report, and what the
 * launcher runs. A managed build that is not in the cache yet has no path and
 * no version until `ensure()` downloads it (at the first browser launch).
 */
export interface BrowserBinary {
  readonly engine: Config['browserEngine'];
  readonly source: BinarySource;
  readonly cacheDir: string;
  readonly executablePath: string | null;
  readonly version: string | null;
  readonly versionOutput: string | null;
  /** A managed stealth build is present in the cache (always false for the other sources). */
  readonly installed: boolean;
  /**
   * The stealth build's own five-part version, from its install receipt (or
   * the pin, before the download); null for stock Chromium. Never read from
   * `--version`, which prints the public Chromium version on the real build.
   */
  readonly stealthBuildVersion: string | null;
  readonly build: BuildFacts | null;
  readonly licence: ReturnType<typeof licenceFacts>;
  /** The executable, downloading and verifying the managed build first if needed. */
  ensure(log: Logger): Promise<string>;
  /** Variables the browser process needs on top of ours (the licence key for the keyed build). */
  launchEnv(): Record<string, string>;
  /** Holds a seat until the returned release is called (once); throws SeatsInUse when none is left. A no-op without a keyed build. */
  claimSeat(log: Logger): Promise<() => void>;
  toJSON(): Record<string, unknown>;
}

const SYSTEM_CHROMIUMS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

interface Located {
  file: string;
  source: BinarySource;
  origin: string;
  fix: string;
}

const VERSION_PROBE = v.object({ version: v.string(), output: v.string() });

class Binary implements BrowserBinary {
  readonly engine: Config['browserEngine'];
  readonly source: BinarySource;
  readonly cacheDir: string;
  executablePath: string | null = null;
  version: string | null = null;
  versionOutput: string | null = null;
  build: BuildFacts | null = null;
  #licence: Licence;
  #request: BuildRequest | undefined;
  /** What to fetch instead when the key turns out invalid or uncheckable. */
  keylessFallback: BuildRequest | undefined;
  #ensuring: Promise<string> | undefined;

  constructor(config: Config, source: BinarySource, licence: Licence, request?: BuildRequest) {
    this.engine = config.browserEngine;
    this.source = source;
    this.cacheDir = config.cacheDir;
    this.#licence = licence;
    this.#request = request;
  }

  get installed(): boolean {
    return this.build?.installDir != null;
  }

  get licence() {
    return licenceFacts(this.#licence);
  }

  get stealthBuildVersion(): string | null {
    if (this.engine !== 'stealth') return null;
    return this.build?.version ?? this.#identified ?? null;
  }

  /** A custom binary that is a stealth build (inside our cache or the vendor's) is known by its receipt or directory. */
  #identified: string | null = null;
  identify(version: string | null): void {
    this.#identified = version;
  }

  async probe(located: Located): Promise<void> {
    await assertRunnable(located.file, located.origin, located.fix);
    const probe = await rememberedFact(this.cacheDir, located.file, 'version', VERSION_PROBE, () => probeVersion(located.file, located.origin, located.fix));
    this.executablePath = located.file;
    this.version = probe.version;
    this.versionOutput = probe.output;
  }

  useBuild(build: InstalledBuild): void {
    const r = build.receipt;
    this.build = {
      ...this.build!,
      version: r.version,
      installDir: build.dir,
      verification: r.verification,
      keyId: r.keyId ?? null,
      archiveSha256: r.archive.sha256,
      installedAt: r.installedAt,
    };
  }

  ensure(log: Logger): Promise<string> {
    if (this.executablePath) return Promise.resolve(this.executablePath);
    this.#ensuring ??= (async () => {
      readTestOverrides(process.env, log); // only to warn, once, that test-only trust is in effect
      if (this.#request?.tier === 'keyed' && this.#licence.key && this.keylessFallback) await this.#checkKeyOrFallBack(log);
      const build = await installBuild(this.#request!, log);
      this.useBuild(build);
      await this.probe(cacheLocated(build));
      return this.executablePath!;
    })().finally(() => (this.#ensuring = undefined));
    return this.#ensuring;
  }

  async #checkKeyOrFallBack(log: Logger): Promise<void> {
    const verdict = await checkKey(this.#licence.key!, this.#request!.vendorOrigin, this.cacheDir, log);
    if (verdict.valid) return log.debug(`licence key ${verdict.reason}`);
    log.warn(`The licence key ${verdict.reason}; using the keyless stealth build instead. Fix: check STEALTH_LICENSE_KEY (or run \`login\` again), or unset it.`);
    this.#request = this.keylessFallback;
    this.#licence = { ...this.#licence, key: undefined, source: 'none' };
    this.build = { ...this.build!, tier: 'keyless', version: this.keylessFallback!.version ?? null, fallback: `keyless: the key ${verdict.reason}` } as BuildFacts;
  }

  launchEnv(): Record<string, string> {
    // Playwright replaces the child's environment when `env` is given, so the
    // caller merges this into process.env. Only the stealth engine gets the key.
    if (this.engine !== 'stealth' || !this.#licence.key) return {};
    // As the vendor's client does: the build says why it refused in this file.
    return { [BROWSER_LICENCE_ENV]: this.#licence.key, [LICENCE_STATUS_ENV]: statusFileFor(this.cacheDir) };
  }

  #seats: SeatLedger | undefined;
  // Only the keyed build takes seats; a key that fell back to the keyless build takes none.
  get #seatLedger(): SeatLedger | undefined {
    if (this.engine !== 'stealth' || !this.#licence.key || this.#request?.tier !== 'keyed') return undefined;
    this.#seats ??= new SeatLedger(this.#licence.key, this.#request.vendorOrigin);
    return this.#seats;
  }

  claimSeat(log: Logger): Promise<() => void> {
    return this.#seatLedger?.claim(log) ?? Promise.resolve(() => {});
  }

  toJSON(): Record<string, unknown> {
    return {
      engine: this.engine,
      executablePath: this.executablePath,
      version: this.version,
      versionOutput: this.versionOutput,
      source: this.source,
      cacheDir: this.cacheDir,
      installed: this.installed,
      // What the build's capabilities (WebRTC IP, inline proxy auth) are judged by.
      stealthBuild: this.stealthBuildVersion ? { version: this.stealthBuildVersion, from: this.build ? (this.installed ? 'install receipt' : 'pinned version (not downloaded yet)') : 'build directory' } : null,
      build: this.build,
      licence: this.licence,
    };
  }
}

function cacheLocated(build: InstalledBuild): Located {
  return {
    file: build.executablePath,
    source: 'cache',
    origin: `the cached stealth build ${build.dir}`,
    fix: `delete ${build.dir} so the next start downloads it again, or pass --binary-path <chromium executable>.`,
  };
}

async function locateOther(config: Config, upstream: UpstreamConfig): Promise<Located> {
  const upstreamPath = upstream.browser?.launchOptions?.executablePath;
  if (upstreamPath)
    return { file: upstreamPath, source: 'custom', origin: 'PLAYWRIGHT_MCP_EXECUTABLE_PATH', fix: 'point it at a Chromium executable, or unset it.' };
  const installed = (await chromium()).executablePath();
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

/**
 * Finds the browser for the configured engine and checks, at startup, that it
 * runs. Never touches the network: a stealth build that is not cached yet is
 * returned pending, and `ensure()` downloads it on the first launch (an MCP
 * client must get its `initialize` answer long before a 200 MB download ends).
 */
export async function resolveBrowserBinary(config: Config, upstream: UpstreamConfig, env: Env = process.env, log?: Logger): Promise<BrowserBinary> {
  const licence = await resolveLicence(config);
  if (config.binaryPath) {
    const binary = new Binary(config, 'custom', licence);
    await binary.probe({ file: config.binaryPath, source: 'custom', origin: '--binary-path (STEALTH_BINARY_PATH)', fix: 'point --binary-path at a Chromium executable, or unset it.' });
    binary.identify(await identifyStealthBuild(config.binaryPath));
    return binary;
  }
  if (config.browserEngine !== 'stealth') {
    const located = await locateOther(config, upstream);
    const binary = new Binary(config, located.source, licence);
    await binary.probe(located);
    return binary;
  }
  if (upstream.browser?.launchOptions?.executablePath)
    throw new ConfigError('PLAYWRIGHT_MCP_EXECUTABLE_PATH is set, but the stealth engine takes its binary from --binary-path (STEALTH_BINARY_PATH). Fix: move the path to STEALTH_BINARY_PATH, or use --browser-engine playwright.');
  const platform = resolvePlatform();
  const request = buildRequest(config, platform, licence.key, readTestOverrides(env, log));
  const binary = new Binary(config, 'cache', licence, request);
  binary.build = {
    provider: PROVIDER,
    platform: platform.tag,
    tier: request.tier,
    version: request.version ?? null,
    installDir: null,
    verification: null,
    keyId: null,
    archiveSha256: null,
    installedAt: null,
    downloadFrom: request.version ? redactUrl(origins(request, request.version)[0]!.archiveUrl) : `${request.vendorOrigin}/api/download/<newest>`,
  };
  if (request.tier === 'keyed') binary.keylessFallback = buildRequest(config, platform, undefined, readTestOverrides(env));
  const build = await findInstalled(config.cacheDir, platform.tag, request.tier, request.version);
  if (build) {
    binary.useBuild(build);
    await binary.probe(cacheLocated(build));
    return binary;
  }
  // Not in our cache: the vendor's own client may have installed this very build.
  const vendorBuild = request.version ? await vendorInstalledBuild(request.version, request.tier === 'keyed', env) : undefined;
  if (vendorBuild) {
    const adopted = new Binary(config, 'vendor-cache', licence, request);
    adopted.build = { ...binary.build, installDir: path.dirname(vendorBuild), verification: 'vendor-client' };
    await adopted.probe({ file: vendorBuild, source: 'vendor-cache', origin: `the vendor client's build ${vendorBuild}`, fix: `remove ${path.dirname(vendorBuild)} to download our own, or pass --binary-path <chromium executable>.` });
    log?.info(`using the stealth build the vendor's client installed at ${vendorBuild} (no second download)`);
    return adopted;
  }
  return binary;
}
