import { ConfigError } from './config-error.ts';
import type { SettingKey } from './settings.ts';

// Every flag of the upstream CLI (`@playwright/mcp` of package-lock), with what
// it does here. test/upstream-flags.test.ts reads the live option list of the
// upstream package and fails when a flag is added there and not here.
//
// - pass: the upstream's own resolver reads it (same name, syntax, meaning);
// - ours: one of our settings has the same meaning; `value` maps the value;
// - refuse: cannot be honoured by this server; the reason says why and what to use.
//
// `arity` tells the parser whether a value follows (`variadic` takes values up
// to the next flag, like commander).
export type Arity = 'none' | 'one' | 'variadic';
export type Disposition =
  | { kind: 'pass'; note?: string }
  | { kind: 'ours'; setting: SettingKey; value?: (raw: string) => string; also?: Partial<Record<SettingKey, string>> }
  | { kind: 'refuse'; reason: string }
  | { kind: 'accept'; note: string };

export interface UpstreamFlag {
  arity: Arity;
  does: Disposition;
}

const pass: Disposition = { kind: 'pass' };
const EXTENSION =
  'extension connection mode attaches to your own running Chrome through the Playwright MCP Bridge extension, while this server launches and owns its browser. To load unpacked extensions into that browser, use --extension-paths with a persistent profile';

export const UPSTREAM_FLAGS: Record<string, UpstreamFlag> = {
  'allowed-hosts': { arity: 'variadic', does: { kind: 'ours', setting: 'httpAllowedHosts' } },
  'allowed-origins': { arity: 'one', does: pass },
  'allow-unrestricted-file-access': { arity: 'none', does: pass },
  // The extension's tab group and focus (--extension is refused here): no effect without it, as under the upstream.
  background: { arity: 'none', does: pass },
  'blocked-origins': { arity: 'one', does: pass },
  'block-service-workers': { arity: 'none', does: pass },
  browser: { arity: 'one', does: pass },
  caps: { arity: 'one', does: { kind: 'pass', note: 'a name no Playwright MCP knows is refused, with the valid ones; the capabilities of earlier versions (`tabs`, `history`, `wait`, `files`, `install`: core tools now) are ignored, as the upstream ignores them, with a note at start' } },
  // Attach mode: connect to a browser the user runs (browser/attach.ts).
  'cdp-endpoint': { arity: 'one', does: pass },
  'cdp-header': { arity: 'variadic', does: pass },
  'cdp-timeout': { arity: 'one', does: pass },
  codegen: { arity: 'one', does: pass },
  config: { arity: 'one', does: pass },
  'console-level': { arity: 'one', does: pass },
  device: {
    arity: 'one',
    does: { kind: 'pass', note: "a name Playwright's device list does not have is refused at start, with the names it was probably meant to be (the upstream emulates no device for it, without a word)" },
  },
  mobile: { arity: 'none', does: pass },
  'executable-path': { arity: 'one', does: { kind: 'ours', setting: 'binaryPath' } },
  extension: { arity: 'none', does: { kind: 'refuse', reason: EXTENSION } },
  endpoint: { arity: 'one', does: pass },
  'file-paths': { arity: 'one', does: pass },
  'grant-permissions': { arity: 'variadic', does: pass },
  headless: { arity: 'none', does: { kind: 'ours', setting: 'headless' } },
  // Only a port makes the upstream serve HTTP: a host alone leaves it on stdio.
  host: { arity: 'one', does: { kind: 'ours', setting: 'httpHost' } },
  'idle-timeout': {
    arity: 'one',
    does: { kind: 'pass', note: 'the countdown starts when the last running call ends (the upstream starts it when a call starts, and can close the browser under a long call); unset, the browser is not closed on idle (the upstream closes a headless one after an hour): over stdio it lives as long as the client, over HTTP a session ends after --http-session-idle-ttl-ms' },
  },
  'ignore-https-errors': { arity: 'none', does: pass },
  'ignore-roots': { arity: 'none', does: pass },
  'init-page': { arity: 'variadic', does: pass },
  'init-script': { arity: 'variadic', does: pass },
  isolated: { arity: 'none', does: pass },
  'image-responses': { arity: 'one', does: pass },
  'no-sandbox': { arity: 'none', does: { kind: 'ours', setting: 'noSandbox', value: () => 'true' } },
  'no-tab-group': { arity: 'none', does: pass },
  'no-webmcp': { arity: 'none', does: pass },
  'output-dir': { arity: 'one', does: { kind: 'ours', setting: 'outputDir' } },
  'output-max-size': { arity: 'one', does: pass },
  port: { arity: 'one', does: { kind: 'ours', setting: 'httpPort', also: { transport: 'streamable-http' } } },
  'profile-dir-name': { arity: 'one', does: { kind: 'refuse', reason: EXTENSION } },
  'proxy-bypass': { arity: 'one', does: { kind: 'ours', setting: 'proxyBypass' } },
  'proxy-server': { arity: 'one', does: { kind: 'ours', setting: 'proxyServer' } },
  'redact-url-params': { arity: 'one', does: pass },
  'remote-header': { arity: 'variadic', does: pass },
  sandbox: { arity: 'none', does: { kind: 'ours', setting: 'noSandbox', value: () => 'false' } },
  'save-session': { arity: 'none', does: pass },
  secrets: { arity: 'one', does: pass },
  'session-color': { arity: 'one', does: pass },
  'session-name': { arity: 'one', does: pass },
  'shared-browser-context': {
    arity: 'none',
    does: {
      kind: 'pass',
      note: "over HTTP every client's session works in one browser and its context (tabs, cookies, storage), launched with the first session and closed with the last, and `browser_close` is refused, as under the upstream; a session asking for settings of its own (headers, `_meta`) is refused then, the warm pool is off and --idle-timeout closes nothing. With --isolated each session keeps a browser of its own (the upstream: a context of its own)",
    },
  },
  'snapshot-boxes': { arity: 'none', does: pass },
  'snapshot-mode': { arity: 'one', does: pass },
  'storage-state': { arity: 'one', does: pass },
  'test-id-attribute': { arity: 'one', does: pass },
  'timeout-action': { arity: 'one', does: pass },
  'timeout-navigation': { arity: 'one', does: pass },
  'timeout-settle': { arity: 'one', does: pass },
  'user-agent': { arity: 'one', does: pass },
  'user-data-dir': { arity: 'one', does: { kind: 'ours', setting: 'userDataDir' } },
  'viewport-size': { arity: 'one', does: pass },
  vision: { arity: 'none', does: pass },
};

// The capabilities the upstream knows (config.d.ts), plus its CLI alias `tracing`.
export const UPSTREAM_CAPS = ['config', 'core', 'core-navigation', 'core-tabs', 'core-input', 'core-install', 'network', 'pdf', 'storage', 'testing', 'vision', 'devtools', 'tracing'];

// Capabilities of earlier Playwright MCP versions (`--caps tabs,pdf,history,wait,files,install`,
// its README in spring 2025), whose tools are core tools now, always listed: the upstream ignores
// them without a word, so a command line written then still starts. Here too, with a note.
export const FORMER_CAPS = ['tabs', 'history', 'wait', 'files', 'install'];

/** Refuses a capability no Playwright MCP knows; returns the former ones it names (accepted, as the upstream accepts them). */
export function checkCaps(raw: string, origin: string): string[] {
  const former: string[] = [];
  for (const cap of raw.split(',').map((c) => c.trim()).filter(Boolean)) {
    if (FORMER_CAPS.includes(cap)) former.push(cap);
    else if (!UPSTREAM_CAPS.includes(cap))
      throw new ConfigError(`${origin}: unknown capability "${cap}". Valid values: ${UPSTREAM_CAPS.join(', ')}. Fix: correct it, e.g. --caps vision,pdf,devtools.`);
  }
  return former;
}

/** What to say at start about former capabilities a setting named. */
export function formerCapsNote(former: readonly string[], origin: string): string[] {
  if (!former.length) return [];
  return [`${origin}: ${former.map((c) => `"${c}"`).join(', ')} ${former.length > 1 ? 'are capabilities' : 'is a capability'} of earlier Playwright MCP versions, whose tools are always on now; ignored, as Playwright MCP ignores ${former.length > 1 ? 'them' : 'it'}. Fix: drop ${former.length > 1 ? 'them' : 'it'}.`];
}

export interface UpstreamFlagUse {
  /** Tokens for the upstream's own parser (commander), in order. */
  argv: string[];
  /** Our settings given by upstream names (lower precedence than our own flags). */
  settings: Partial<Record<SettingKey, string>>;
  /** Accepted flags with a different effect here: said once at start (stderr). */
  notes: string[];
}
