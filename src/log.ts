import { createConsola as createBasicConsola, type ConsolaInstance, LogLevels } from 'consola/basic';
import { formatWithOptions } from 'node:util';
import type { Config } from './config/settings.ts';

// consola's fancy reporter (icons, colours, badges) is for a person at a
// terminal; loading it (string width tables, box drawing) took ~35 ms of
// every start on the way to the first browser launch (this machine under
// load: 46 vs 11 ms to import), where an MCP client reads our stderr from a
// pipe. consola itself picks its basic reporter in CI; we pick it whenever
// stderr is not a terminal.
const createConsola = process.stderr.isTTY ? (await import('consola')).createConsola : createBasicConsola;

export type Logger = ConsolaInstance;

// stdout is the MCP channel in stdio mode: every log line goes to stderr.
export function createLogger(level: Config['logLevel'] = 'info', format: Config['logFormat'] = 'text'): Logger {
  return createConsola({
    level: level === 'silent' ? LogLevels.silent : LogLevels[level],
    stdout: process.stderr,
    stderr: process.stderr,
    formatOptions: { date: false, colors: process.stderr.isTTY === true },
    ...(format === 'json' ? { reporters: [jsonReporter(process.stderr)] } : {}),
  });
}

function jsonReporter(stream: NodeJS.WritableStream) {
  return {
    log(entry: { type: string; tag?: string; args: unknown[]; date: Date }) {
      const message = formatWithOptions({ colors: false, breakLength: Infinity }, ...entry.args);
      stream.write(`${JSON.stringify({ time: entry.date.toISOString(), level: entry.type, ...(entry.tag ? { tag: entry.tag } : {}), message })}\n`);
    },
  };
}

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  session: string | undefined;
}

/**
 * HTTP mode: request lines go to stdout (free there), in the log format;
 * warnings and errors stay on stderr. Only the path: query strings and headers
 * (tokens) never reach it.
 */
export function requestLogger(level: Config['logLevel'], format: Config['logFormat'], out: NodeJS.WritableStream = process.stdout): (line: RequestLine) => void {
  if (LogLevels[level === 'silent' ? 'silent' : level] < LogLevels.info) return () => {};
  return (line) => {
    const time = new Date().toISOString();
    out.write(
      format === 'json'
        ? `${JSON.stringify({ time, level: 'info', ...line, session: line.session ?? null })}\n`
        : `${time} ${line.method} ${line.path} ${line.status} ${line.durationMs}ms session=${line.session ?? '-'}\n`,
    );
  };
}
