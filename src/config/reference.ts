import os from 'node:os';
import path from 'node:path';
import { settings, type Setting } from './settings.ts';
import { UPSTREAM_FLAGS, type Disposition } from './upstream-flags.ts';

// Renders the settings table for `--help` and docs/configuration.md from the one schema.
const SECTION_TITLES: Record<Setting<unknown>['section'], string> = {
  browser: 'Browser',
  identity: 'Proxy, GeoIP matching, profiles, extensions and context options',
  server: 'Server',
  http: 'Streamable HTTP (--transport streamable-http)',
  cdp: 'Managed CDP (DevTools) access',
  container: 'Container launcher (the `launcher` and `health` commands)',
  security: 'Security',
};

function valueHint(s: Setting<unknown>): string {
  return s.kind.bare ? '' : ` <${s.kind.accepts.startsWith('one of ') ? s.kind.accepts.slice(7).replaceAll(', ', '|') : 'value'}>`;
}

export function helpSections(): string {
  const out: string[] = [];
  for (const [section, title] of Object.entries(SECTION_TITLES)) {
    out.push(`${title}:`);
    for (const s of Object.values(settings) as Setting<unknown>[]) {
      if (s.section !== section) continue;
      out.push(`  --${s.flag}${valueHint(s)}`);
      out.push(`      ${s.help.replaceAll('`', '')}`);
      out.push(`      env ${s.env}; default ${s.default ?? '(unset)'}; accepts ${s.kind.accepts}`);
    }
    out.push('');
  }
  return out.join('\n');
}

// The docs name the temp dir as the setting does, not as it is on the machine that wrote them.
function documentedDefault(value: unknown): string {
  const text = String(value);
  return text.startsWith(os.tmpdir() + path.sep) ? `$TMPDIR${text.slice(os.tmpdir().length)}` : text;
}

export function markdownTable(): string {
  const rows = (Object.values(settings) as Setting<unknown>[]).map(
    (s) => `| \`--${s.flag}\` | \`${s.env}\` | ${s.default === undefined ? 'unset' : `\`${documentedDefault(s.default)}\``} | ${s.kind.accepts} | ${s.help} |`,
  );
  return ['| flag | environment variable | default | accepts | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}

function upstreamLine(name: string, does: Disposition): string {
  if (does.kind === 'pass') return `--${name}`;
  if (does.kind === 'ours') return settings[does.setting].flag === name ? `--${name}` : `--${name} (= --${settings[does.setting].flag}${does.value ? ` ${does.value('')}` : ''})`;
  return `--${name} (${does.kind === 'refuse' ? 'refused' : 'accepted, no effect'})`;
}

/** The upstream's flags, from the same table the parser reads (see docs/playwright-mcp-compat.md). */
export function upstreamFlagsHelp(): string {
  const names = Object.entries(UPSTREAM_FLAGS).map(([name, flag]) => upstreamLine(name, flag.does));
  const lines: string[] = [];
  for (let i = 0; i < names.length; i += 3) lines.push(`  ${names.slice(i, i + 3).join(', ')}`);
  return ['Playwright MCP flags (same names, syntax and meaning as @playwright/mcp; its --help explains them):', ...lines, ''].join('\n');
}

export function upstreamFlagsTable(): string {
  const rows = Object.entries(UPSTREAM_FLAGS).map(([name, { does }]) => {
    const what =
      does.kind === 'pass' ? `as upstream (the upstream resolver reads it)${does.note ? `; ${does.note}` : ''}`
      : does.kind === 'ours' ? `our \`--${settings[does.setting].flag}\`${does.value ? ` = ${does.value('')}` : ''}${does.also ? ` (and ${Object.entries(does.also).map(([k, v]) => `--${settings[k as keyof typeof settings].flag} ${v}`).join(', ')})` : ''}`
      : does.kind === 'refuse' ? `refused: ${does.reason}`
      : `accepted without effect: ${does.note}`;
    return `| \`--${name}\` | ${what} |`;
  });
  return ['| upstream flag | here |', '|---|---|', ...rows].join('\n');
}
