import { defineCommand } from 'citty';
import type { SessionOverrides } from '../session/session-overrides.ts';
import { COMMANDS } from './usage.ts';

export default defineCommand({
  meta: { name: 'serve', description: COMMANDS.serve },
  async run({ rawArgs }) {
    const { readConfig } = await import('./startup.ts');
    const { config: ownConfig, log, upstream } = readConfig(rawArgs);
    // Before any browser: kill those a SIGKILLed predecessor left, and record ours.
    const { startInstance, instanceLaunchArgs } = await import('../instance/instance.ts');
    const runtimeDir = ownConfig.runtimeDir ?? (await import('../instance/runtime-dir.ts')).defaultRuntimeDir();
    const privateRuntimeDir = await startInstance(runtimeDir, log);
    // Before any browser starts: every one inherits the PATH it sets.
    if (privateRuntimeDir) (await import('../browser/app-link-guard.ts')).guardAppLinks(runtimeDir, log);
    // Over stdio Chromium starts now, before playwright-core loads (browser/spawn-ahead).
    // Its recipe names a program to run: it lives only in the private runtime dir.
    const seed =
      ownConfig.transport === 'stdio' && ownConfig.browserPrelaunch && privateRuntimeDir
        ? (await import('../browser/spawn-ahead/spawn-ahead.ts')).spawnAhead({ runtimeDir, argv: rawArgs, marker: instanceLaunchArgs()[0], log })
        : undefined;
    // stdio answers initialize while the rest starts (see transport/early-stdio.ts).
    const early = ownConfig.transport === 'stdio' ? new (await import('../transport/early-stdio.ts')).EarlyStdioTransport() : undefined;
    await early?.listen();
    await early?.handshake(1000);
    const { resolveUpstreamConfig } = await import('../config/upstream.ts');
    const { adoptLaunchOptions } = await import('../config/upstream-launch.ts');
    const adopted = adoptLaunchOptions(ownConfig, await resolveUpstreamConfig(ownConfig, process.env, upstream));
    const { config, upstream: upstreamConfig } = adopted;
    for (const note of adopted.notes) log.warn(note);
    // Under the container launcher: liveness pings and the on-demand display.
    if (config.launcherControl) await (await import('../container/server-link.ts')).connectLauncher(config.launcherControl, log);
    await (await import('../browser/identity-checks.ts')).checkIdentitySettings(config);
    const { resolveBrowserBinary } = await import('../browser/binary.ts');
    const binary = await resolveBrowserBinary(config, upstreamConfig);
    log.debug(`browser: ${binary.engine} ${binary.version} at ${binary.executablePath} (${binary.source})`);
    // Each live upstream context adds a process-wide unhandledRejection listener.
    process.setMaxListeners(0);
    const { cdpPool: makeCdpPool } = await import('../cdp/cdp-config.ts');
    const cdpPool = makeCdpPool(config);
    const inputs = { config, upstreamConfig, binary, log, cdpPool };
    // Over stdio the browser starts before the MCP side (the SDK) loads; a
    // failure here is reported by the session's start, below, as before.
    const launch = config.transport === 'stdio' ? new (await import('../session/session-launch.ts')).SessionLaunch({ ...inputs, seed, prelaunch: true }) : undefined;
    launch?.prepare().catch(() => {});
    const { BridgeSession } = await import('../session/bridge-session.ts');
    if (config.transport === 'streamable-http') {
      // Before the pool's first launch, so /metrics counts it.
      await (await import('../metrics/metrics.ts')).enableMetrics();
      const { serveHttp } = await import('../transport/http/http-server.ts');
      const { sharesOneContext, SharedLaunch } = await import('../session/shared-launch.ts');
      if (sharesOneContext(config, upstreamConfig)) {
        log.info('--shared-browser-context: every client works in one browser context, launched with the first session and closed with the last; the warm pool is off');
        const shared = new SharedLaunch({ ...inputs, prelaunch: true });
        await serveHttp({ config, log, createSession: (overrides) => new BridgeSession({ ...inputs, overrides, shared }) });
        return;
      }
      // Every launch of Playwright's from here on starts on a prepared profile when one is ready.
      if (privateRuntimeDir && config.browserPrelaunch) (await import('../browser/spawn-ahead/prepared-start.ts')).startOnPreparedProfiles({ marker: instanceLaunchArgs()[0], log });
      const { warmPool } = await import('../session/warm-pool-setup.ts');
      const { takesDefaultLaunch } = await import('../session/default-launch.ts');
      const holder: { pool?: ReturnType<typeof warmPool> } = {};
      const make = (overrides: SessionOverrides = {}, prelaunch = false) => new BridgeSession({ ...inputs, overrides, pool: holder.pool, prelaunch });
      holder.pool = warmPool({ config, upstreamConfig, log, make: () => make() });
      const pool = holder.pool;
      // A client with the default settings gets a warm session; any setting of
      // its own (or an empty pool), a new one. With a pool, whose point is a
      // browser ready when the client needs it, that one launches at once too.
      const createSession = (overrides: SessionOverrides) => (pool && takesDefaultLaunch(config, overrides) ? pool.take() : undefined) ?? make(overrides, pool !== undefined);
      await serveHttp({ config, log, pool, createSession });
      return;
    }
    const { serveStdio } = await import('../transport/stdio.ts');
    await serveStdio(new BridgeSession({ ...inputs, launch }), early!, log);
  },
});
