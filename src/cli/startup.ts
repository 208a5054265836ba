import { parseFlags, type FlagSpec, type RawValues } from '../config/flags.ts';
import { withConfigFileServer } from '../config/config-file-server.ts';
import { loadConfig, unknownOwnEnv } from '../config/load.ts';
import type { Config } from '../config/settings.ts';
import { resolveUpstreamConfig, withUpstreamAliases, type UpstreamConfig, type UpstreamInputs } from '../config/upstream.ts';
import { settings } from '../config/settings.ts';
import { createLogger, type Logger } from '../log.ts';

export interface Startup {
  config: Config;
  commandFlags: RawValues;
  /** What the upstream's own resolver needs besides the environment. */
  upstream: UpstreamInputs;
  upstreamConfig: UpstreamConfig;
  log: Logger;
}

/** Flags + env + defaults, validated; cheap (the upstream's resolver loads playwright-core). */
export function readConfig(rawArgs: readonly string[], commandFlags: Record<string, FlagSpec> = {}): Omit<Startup, 'upstreamConfig'> {
  const flags = parseFlags(rawArgs, commandFlags);
  const config = loadConfig(flags.settings, withConfigFileServer(withUpstreamAliases(process.env), flags.settings, flags.upstream.argv));
  const log = createLogger(config.logLevel, config.logFormat);
  for (const warning of unknownOwnEnv(process.env)) log.warn(warning);
  for (const note of flags.upstream.notes) log.warn(note);
  const outputDirGiven = flags.settings.outputDir !== undefined || Boolean(process.env[settings.outputDir.env]);
  const headlessGiven = flags.settings.headless !== undefined || Boolean(process.env[settings.headless.env]);
  return { config, commandFlags: flags.command, upstream: { argv: flags.upstream.argv, outputDirGiven, headlessGiven }, log };
}

/** Our settings plus the upstream's view of PLAYWRIGHT_MCP_*. */
export async function startup(rawArgs: readonly string[], commandFlags: Record<string, FlagSpec> = {}): Promise<Startup> {
  const ours = readConfig(rawArgs, commandFlags);
  return { ...ours, upstreamConfig: await resolveUpstreamConfig(ours.config, process.env, ours.upstream) };
}
