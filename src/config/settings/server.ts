import os from 'node:os';
import path from 'node:path';
import { boolean, filePath, integer, oneOf } from '../kinds.ts';
import { setting } from './setting.ts';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug', 'trace'] as const;

// The server process: transport, output, logging.
export const serverSettings = {
  outputDir: setting({
    flag: 'output-dir',
    env: 'PLAYWRIGHT_MCP_OUTPUT_DIR',
    kind: filePath,
    default: path.join(os.tmpdir(), 'stealth-playwright-mcp'),
    help: 'Where screenshots, snapshots and logs go. HTTP: the root, each session writes into <output-dir>/<session-id>/. stdio: the dir itself, as Playwright MCP (unset: .playwright-mcp in the client workspace, its first root, else the working directory)',
    section: 'server',
  }),
  resourceMaxBytes: setting({
    flag: 'resource-max-bytes',
    env: 'STEALTH_PLAYWRIGHT_MCP_RESOURCE_MAX_BYTES',
    kind: integer(1024, 2 ** 40),
    default: String(64 * 1024 * 1024),
    help: 'Largest session file resources/read sends (base64 grows it by a third); larger ones are refused with an error naming this setting',
    section: 'server',
  }),
  sessionOutputMaxBytes: setting({
    flag: 'session-output-max-bytes',
    env: 'STEALTH_PLAYWRIGHT_MCP_SESSION_OUTPUT_MAX_BYTES',
    kind: integer(1024 * 1024, 2 ** 44),
    default: String(1024 * 1024 * 1024),
    help: 'HTTP: bytes a session may keep under its output dir; past it, its browser tools are refused with an error naming this setting (stealth_bridge_info shows the usage)',
    section: 'server',
  }),
  maxResultChars: setting({
    flag: 'max-result-chars',
    env: 'STEALTH_PLAYWRIGHT_MCP_MAX_RESULT_CHARS',
    kind: integer(10_000, 100_000_000),
    default: '1000000',
    help: 'Longest text a tool result carries (a snapshot of a huge page, a huge evaluate result); the rest is cut with a note naming this setting (write big snapshots to a file with browser_snapshot\'s filename)',
    section: 'server',
  }),
  keepArtifacts: setting({
    flag: 'keep-artifacts',
    env: 'STEALTH_PLAYWRIGHT_MCP_KEEP_ARTIFACTS',
    kind: boolean,
    default: 'false',
    help: 'HTTP: keep a session\'s output dir (<output-dir>/<session-id>/) after it ends; by default it is removed with the session',
    section: 'server',
  }),
  runtimeDir: setting({
    flag: 'runtime-dir',
    env: 'STEALTH_PLAYWRIGHT_MCP_RUNTIME_DIR',
    kind: filePath,
    help: 'Private dir where each server records the browsers it owns, so the next start kills those of a server that was killed abruptly (default `$XDG_RUNTIME_DIR/stealth-playwright-mcp`, else `<tmp>/stealth-playwright-mcp-<uid>`)',
    section: 'server',
  }),
  transport: setting({
    flag: 'transport',
    env: 'STEALTH_PLAYWRIGHT_MCP_TRANSPORT',
    kind: oneOf(['stdio', 'streamable-http']),
    default: 'stdio',
    help: 'How MCP clients connect: `stdio` (one client, launched by it) or `streamable-http` (many clients, one isolated browser each)',
    section: 'server',
  }),
  logLevel: setting({
    flag: 'log-level',
    env: 'STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL',
    kind: oneOf(LOG_LEVELS),
    default: 'info',
    help: 'Detail of the log written to stderr',
    section: 'server',
  }),
  logFormat: setting({
    flag: 'log-format',
    env: 'STEALTH_PLAYWRIGHT_MCP_LOG_FORMAT',
    kind: oneOf(['text', 'json']),
    default: 'text',
    help: '`text`: `[level] message` lines, with icons and colours when stderr is a terminal; `json`: one JSON object a line (time, level, message; HTTP request lines with method, path, status, durationMs, session) for log pipelines; never a token or credential',
    section: 'server',
  }),
};
