import fs from 'node:fs';
import { parseSetting, type Env } from './load.ts';
import { settings, type Setting, type SettingKey } from './settings.ts';

// The upstream's config file (`--config`, PLAYWRIGHT_MCP_CONFIG) may say how
// to serve: `"server": { "port": 8931, "host": "localhost", "allowedHosts":
// [...] }`, which makes the upstream CLI listen on HTTP instead of stdio. The
// rest of the file is read by the upstream's own resolver, after playwright-core
// loads; the transport must be known before, so this section is read here,
// the way the upstream reads the file (JSON, else INI: `server.port = 8931` or
// a `[server]` section). Precedence as upstream: the file < env < flags.

const SERVER_KEYS: Record<'port' | 'host' | 'allowedHosts', SettingKey> = { port: 'httpPort', host: 'httpHost', allowedHosts: 'httpAllowedHosts' };
type ServerSection = Partial<Record<keyof typeof SERVER_KEYS, string>>;

function fromJson(value: unknown): ServerSection {
  const server = (value as { server?: unknown } | null)?.server;
  if (!server || typeof server !== 'object') return {};
  const out: ServerSection = {};
  for (const key of Object.keys(SERVER_KEYS) as (keyof ServerSection)[]) {
    const raw = (server as Record<string, unknown>)[key];
    if (raw === undefined || raw === null) continue;
    out[key] = Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
  }
  return out;
}

function fromIni(text: string): ServerSection {
  const out: ServerSection = {};
  let section = '';
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith(';') || trimmed.startsWith('#')) continue;
    const header = /^\[([^\]]+)\]$/.exec(trimmed);
    if (header) {
      section = header[1]!.trim();
      continue;
    }
    const eq = trimmed.indexOf('=');
    if (eq < 0) continue;
    const key = (section ? `${section}.` : '') + trimmed.slice(0, eq).trim().replace(/\[\]$/, '');
    const value = trimmed.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    const name = key.startsWith('server.') ? (key.slice('server.'.length) as keyof ServerSection) : undefined;
    if (!name || !(name in SERVER_KEYS)) continue;
    // Repeated `allowedHosts[] = …` lines add up.
    out[name] = name === 'allowedHosts' && out[name] ? `${out[name]},${value}` : value;
  }
  return out;
}

/** The file's `server` section; nothing when it cannot be read (the upstream's resolver then says why). */
function serverSection(file: string): ServerSection {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (file.endsWith('.ini')) return fromIni(text);
  try {
    return fromJson(JSON.parse(text));
  } catch {
    return /^\s*\{/.test(text) ? {} : fromIni(text);
  }
}

/** The config file the upstream will read: `--config`, else PLAYWRIGHT_MCP_CONFIG. */
function configFileOf(upstreamArgv: readonly string[], env: Env): string | undefined {
  const at = upstreamArgv.indexOf('--config');
  return (at >= 0 ? upstreamArgv[at + 1] : undefined) ?? (env.PLAYWRIGHT_MCP_CONFIG || undefined);
}

/**
 * The environment with the config file's `server` section as our HTTP
 * settings, where neither a flag nor a variable sets them; a port there
 * means Streamable HTTP, as it does for the upstream CLI (a host alone does not).
 */
export function withConfigFileServer(env: Env, flags: Partial<Record<SettingKey, string>>, upstreamArgv: readonly string[]): Env {
  const file = configFileOf(upstreamArgv, env);
  if (!file) return env;
  const section = serverSection(file);
  const out: Env = { ...env };
  let serves = false;
  for (const [name, key] of Object.entries(SERVER_KEYS) as [keyof ServerSection, SettingKey][]) {
    const raw = section[name];
    const s = settings[key] as Setting<unknown>;
    if (raw === undefined || flags[key] !== undefined || (env[s.env] ?? '') !== '') continue;
    // Checked here, so a bad value is named where it was written.
    parseSetting(s, raw, `server.${name} in ${file}`, `correct server.${name} in that file, or remove it (--${s.flag} and ${s.env} override it)`);
    out[s.env] = raw;
    if (name === 'port') serves = true;
  }
  const transport = settings.transport;
  if (serves && flags.transport === undefined && (env[transport.env] ?? '') === '') out[transport.env] = 'streamable-http';
  return out;
}
