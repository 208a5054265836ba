import { createConsola, type ConsolaInstance, LogLevels } from 'consola';
import type { Config } from './config/settings.ts';

export type Logger = ConsolaInstance;

// stdout is the MCP channel in stdio mode: every log line goes to stderr.
export function createLogger(level: Config['logLevel'] = 'info'): Logger {
  return createConsola({
    level: level === 'silent' ? LogLevels.silent : LogLevels[level],
    stdout: process.stderr,
    stderr: process.stderr,
    formatOptions: { date: false, colors: process.stderr.isTTY === true },
  });
}
