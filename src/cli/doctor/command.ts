import { defineCommand } from 'citty';
import { COMMANDS } from '../usage.ts';
import type { DoctorReport } from './checks.ts';

function render(report: DoctorReport): string {
  const mark = { ok: 'ok   ', warn: 'warn ', error: 'ERROR' } as const;
  const lines = [`${report.package.name} ${report.package.version} doctor: ${report.status}`, ''];
  for (const check of report.checks) {
    lines.push(`[${mark[check.status]}] ${check.name}: ${check.message}`);
    if (check.hint) lines.push(`        fix: ${check.hint}`);
  }
  const p = report.packages;
  lines.push('', 'Resolved:', `  @playwright/mcp   ${p.upstream.version ?? '-'}  ${p.upstream.path ?? ''}`);
  lines.push(`  playwright        ${p.playwright.version ?? '-'}  ${p.playwright.path ?? ''}`);
  lines.push(`  playwright-core   ${p.upstreamCore.version ?? '-'}  ${p.upstreamCore.path ?? ''}`);
  lines.push(`  core bundle       ${p.coreBundlePath ?? '-'}`);
  return `${lines.join('\n')}\n`;
}

export default defineCommand({
  meta: { name: 'doctor', description: COMMANDS.doctor },
  async run({ rawArgs }) {
    const { parseFlags } = await import('../../config/flags.ts');
    const json = parseFlags(rawArgs, { json: { bare: true } }).command.json === 'true';
    const { startup } = await import('../startup.ts');
    const { runChecks } = await import('./checks.ts');
    const report = await runChecks(() => startup(rawArgs, { json: { bare: true } }));
    process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : render(report));
    if (report.status === 'error') process.exitCode = 1;
  },
});
