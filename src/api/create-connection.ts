import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { BrowserContext } from 'playwright-core';
import { loadConfig } from '../config/load.ts';
import { settings, type Config } from '../config/settings.ts';
import { resolveUpstreamConfig, withUpstreamAliases, type UpstreamConfig } from '../config/upstream.ts';
import { adoptLaunchOptions } from '../config/upstream-launch.ts';
import { checkUpstreamObject } from '../config/upstream-object.ts';
import { createLogger, type Logger } from '../log.ts';
import type { Server } from '../mcp-sdk.ts';

// Playwright MCP's programmatic entry, `createConnection(config, contextGetter)`
// (its README's "Programmatic usage"), on this server: the same call returns an
// MCP server for one client, to connect to a transport of the caller's, whose
// browser is ours (the stealth build, its fingerprint, humanised input, the
// guards). As in the upstream, the config is the object alone: none of the
// upstream's PLAYWRIGHT_MCP_* variables is read. Our own settings come from
// their variables, as for the command line. Unlike the upstream, the
// browser closes when the connection does.

interface Process {
  config: Config;
  log: Logger;
}

let started: Promise<Process> | undefined;

/** Once per process: our settings, the log, the instance record that lets a later start reap browsers this process leaves if killed. */
function startProcess(): Promise<Process> {
  started ??= (async () => {
    const own = new Set(Object.values(settings).map((s) => s.env));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => own.has(name) || !name.startsWith('PLAYWRIGHT_MCP_')));
    const config = loadConfig({}, withUpstreamAliases(env));
    const log = createLogger(config.logLevel, config.logFormat);
    const { startInstance } = await import('../instance/instance.ts');
    const runtimeDir = config.runtimeDir ?? (await import('../instance/runtime-dir.ts')).defaultRuntimeDir();
    if (await startInstance(runtimeDir, log)) (await import('../browser/app-link-guard.ts')).guardAppLinks(runtimeDir, log);
    process.setMaxListeners(0);
    return { config, log };
  })();
  started.catch(() => (started = undefined));
  return started;
}

export async function createConnection(userConfig: UpstreamConfig = {}, contextGetter?: () => Promise<BrowserContext>): Promise<Server> {
  // The caller's own browser: nothing of ours runs it, so the upstream's own connection, as Playwright MCP gives it.
  if (contextGetter) {
    const { coreBundle } = await import('../playwright-bundles.ts');
    const { tools } = (await coreBundle()) as { tools: { createConnection(config: UpstreamConfig, getter: () => Promise<BrowserContext>): Promise<Server> } };
    return tools.createConnection(userConfig, contextGetter);
  }
  const object = checkUpstreamObject(userConfig);
  const { config: ownConfig, log } = await startProcess();
  // The output dir is the object's `outputDir`, else ours when set, else the upstream's default; headless unless its launch options say otherwise.
  const resolved = await resolveUpstreamConfig(ownConfig, {}, { outputDirGiven: Boolean(process.env[settings.outputDir.env]), headlessGiven: true, object });
  const adopted = adoptLaunchOptions(ownConfig, resolved);
  for (const note of adopted.notes) log.warn(note);
  const { config, upstream: upstreamConfig } = adopted;
  await (await import('../browser/identity-checks.ts')).checkIdentitySettings(config);
  const binary = await (await import('../browser/binary.ts')).resolveBrowserBinary(config, upstreamConfig);
  const cdpPool = (await import('../cdp/cdp-config.ts')).cdpPool(config);
  const { BridgeSession } = await import('../session/bridge-session.ts');
  const session = new BridgeSession({ config, upstreamConfig, binary, log, cdpPool, prelaunch: config.browserPrelaunch });
  await session.start();
  // The session (its browser, profile, relays) ends with the connection: when the transport closes or the caller closes the server.
  const connect = session.server.connect.bind(session.server);
  session.server.connect = async (transport: Transport) => {
    await connect(transport);
    const closed = transport.onclose;
    transport.onclose = () => {
      closed?.();
      void session.close();
    };
  };
  return session.server;
}
