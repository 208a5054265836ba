import { settings, type Setting } from './settings.ts';

// Renders the settings table for `--help` and the README from the one schema.
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

export function markdownTable(): string {
  const rows = (Object.values(settings) as Setting<unknown>[]).map(
    (s) => `| \`--${s.flag}\` | \`${s.env}\` | ${s.default === undefined ? 'unset' : `\`${s.default}\``} | ${s.kind.accepts} | ${s.help} |`,
  );
  return ['| flag | environment variable | default | accepts | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}
