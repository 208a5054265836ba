import { parseFlags, type FlagSpec, type RawValues } from '../config/flags.ts';
import { loadConfig, unknownOwnEnv } from '../config/load.ts';
import type { Config } from '../config/settings.ts';
import { resolveUpstreamConfig, type UpstreamConfig } from '../config/upstream.ts';
import { createLogger, type Logger } from '../log.ts';

export interface Startup {
  config: Config;
  commandFlags: RawValues;
  upstreamConfig: UpstreamConfig;
  log: Logger;
}

/** Flags + env + defaults, validated; cheap (the upstream's resolver loads playwright-core). */
export function readConfig(rawArgs: readonly string[], commandFlags: Record<string, FlagSpec> = {}): Omit<Startup, 'upstreamConfig'> {
  const flags = parseFlags(rawArgs, commandFlags);
  const config = loadConfig(flags.settings, process.env);
  const log = createLogger(config.logLevel);
  for (const warning of unknownOwnEnv(process.env)) log.warn(warning);
  return { config, commandFlags: flags.command, log };
}

/** Our settings plus the upstream's view of PLAYWRIGHT_MCP_*. */
export async function startup(rawArgs: readonly string[], commandFlags: Record<string, FlagSpec> = {}): Promise<Startup> {
  const ours = readConfig(rawArgs, commandFlags);
  return { ...ours, upstreamConfig: await resolveUpstreamConfig(ours.config, process.env) };
}
