// npm run detect: open-source bot detectors (from npm) and our own probe,
// served from 127.0.0.1, visited by our server (driven only through MCP tools),
// in the same run by the upstream Playwright MCP CLI driven the same way on the
// same Chromium, and by that Chromium unautomated as the control. Prints, per
// mode, which detectors flag each side and every signal that fires on ours but
// not on the control. Reported, never asserted (npm test asserts the probes).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DETECTORS, library } from './pages.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium';
const REPORT_MS = 25_000;
const args = process.argv.slice(2);
const modes = (args.find((a) => a.startsWith('--modes='))?.slice(8) ?? 'headless,headed').split(',') as ('headless' | 'headed')[];
// Settings of ours to try, e.g. --ours-args=--console-capture=false (space-separated).
const oursArgs = (args.find((a) => a.startsWith('--ours-args='))?.slice(12) ?? '').split(' ').filter(Boolean);
// The compiled binary instead of the Node package, e.g. --ours-binary=dist/bin/stealth-playwright-mcp-linux-x64.
const oursBinary = args.find((a) => a.startsWith('--ours-binary='))?.slice(14);
const log = (s: string) => process.stderr.write(`detect: ${s}\n`);

interface Report {
  flagged: boolean | null;
  signals?: Record<string, unknown>;
  error?: string;
  score?: number;
}

const waiting = new Map<string, (r: Report) => void>();
const site = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const lib = library(url.pathname);
  if (lib) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(lib);
  if (req.method === 'POST' && url.pathname.startsWith('/report/')) {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(204).end();
      waiting.get(url.pathname.slice(8))?.(JSON.parse(body) as Report);
    });
    return;
  }
  const page = DETECTORS[url.pathname.slice(1)];
  res.writeHead(page ? 200 : 404, { 'content-type': 'text/html' }).end(page ?? 'not found');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

function expectReport(name: string): Promise<Report> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ flagged: null, error: 'no report within 25 s' }), REPORT_MS);
    waiting.set(name, (r) => {
      clearTimeout(timer);
      waiting.delete(name);
      resolve(r);
    });
  });
}

async function startDisplay(): Promise<{ display: string; stop(): void }> {
  const n = 90 + Math.floor(Math.random() * 9);
  const xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  const socket = `/tmp/.X11-unix/X${n}`;
  for (let i = 0; i < 50 && !fs.existsSync(socket); i++) await new Promise((r) => setTimeout(r, 100));
  return { display: `:${n}`, stop: () => xvfb.kill('SIGTERM') };
}

type Side = 'ours' | 'upstream';

/** How each side's server starts: ours from the Node package (or the binary), the upstream's CLI on Node. */
function serverCommand(side: Side, mode: string, outputDir: string): { command: string; args: string[] } {
  const output = ['--output-dir', outputDir];
  if (side === 'ours') {
    const settings = ['--headless', String(mode === 'headless'), ...output, ...oursArgs];
    return oursBinary ? { command: path.resolve(oursBinary), args: settings } : { command: process.execPath, args: [path.join(ROOT, 'dist', 'node', 'cli.mjs'), ...settings] };
  }
  const cli = path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');
  return { command: process.execPath, args: [cli, '--browser', 'chromium', '--executable-path', CHROMIUM, '--isolated', '--no-sandbox', ...(mode === 'headless' ? ['--headless'] : []), ...output] };
}

/** A server, driven as an agent would: navigate, snapshot, click, type (and, on the probe page, an evaluate). */
// Ours is read as a returning user's start: one with the same command before it (untimed, a few
// seconds) records its launch and makes its profile template, so the measured one starts its browser
// ahead on a prepared profile (headless), as a user's every start after the first does.
const RETURNING_WARM_UP_MS = 4000;

/** How ours started its browser in the measured run (stealth_bridge_info's launch.spawnAhead). */
const oursStart: Record<string, string> = {};

async function viaMcp(side: Side, mode: string, display: string | undefined): Promise<Record<string, Report>> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', STEALTH_BINARY_PATH: CHROMIUM, STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'warn', ...(display ? { DISPLAY: display } : {}) };
  // The same dir for both starts: the command line is part of what a recorded launch is for.
  const outputDir = path.join(os.tmpdir(), `detect-${side}-${mode}-${process.pid}`);
  fs.mkdirSync(outputDir, { recursive: true });
  if (side === 'ours') {
    const warm = new Client({ name: 'detect-warm-up', version: '1' });
    await warm.connect(new StdioClientTransport({ ...serverCommand(side, mode, outputDir), env, stderr: 'ignore' }));
    await new Promise((r) => setTimeout(r, RETURNING_WARM_UP_MS));
    await warm.close();
  }
  const transport = new StdioClientTransport({ ...serverCommand(side, mode, outputDir), env, stderr: 'ignore' });
  const client = new Client({ name: 'detect', version: '1' });
  await client.connect(transport);
  const call = (name: string, a: Record<string, unknown> = {}) => client.callTool({ name, arguments: a }, undefined, { timeout: 60_000 });
  const out: Record<string, Report> = {};
  try {
    for (const name of Object.keys(DETECTORS)) {
      const report = expectReport(name);
      await call('browser_navigate', { url: `${base}/${name}` });
      const snap = JSON.stringify((await call('browser_snapshot')).content);
      const ref = (label: string) => snap.match(new RegExp(`${label}[^\\\\]*?\\[ref=([a-z0-9]+)\\]`))?.[1];
      const go = ref('button \\\\"Continue\\\\"');
      if (go) await call('browser_click', { target: go, element: 'Continue' });
      const field = ref('textbox \\\\"Search\\\\"');
      if (field) await call('browser_type', { target: field, element: 'Search', text: 'weather tomorrow' });
      // An agent reading the page with its own script (the probe page watches who calls getElementById).
      if (name === 'probe') await call('browser_evaluate', { function: "() => document.getElementById('go')?.textContent" });
      out[name] = await report;
    }
    if (side === 'ours') {
      const info = ((await call('stealth_bridge_info')) as { structuredContent?: { session?: { launch?: { spawnAhead?: { state?: string; profile?: string } } } } }).structuredContent;
      const ahead = info?.session?.launch?.spawnAhead;
      oursStart[mode] = `${ahead?.state ?? '?'}${ahead?.profile ? `, ${ahead.profile} profile` : ''}`;
    }
  } finally {
    await client.close();
    fs.rmSync(outputDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  return out;
}

/** The control: the same Chromium, started by hand, no driver attached. */
async function control(mode: string, display: string | undefined): Promise<Record<string, Report>> {
  const out: Record<string, Report> = {};
  for (const name of Object.keys(DETECTORS)) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'detect-control-'));
    const report = expectReport(name);
    const flags = [...(mode === 'headless' ? ['--headless'] : []), ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--no-first-run', '--disable-background-networking', '--disable-component-update', `--user-data-dir=${profile}`, `${base}/${name}`];
    const child: ChildProcess = spawn(CHROMIUM, flags, { stdio: 'ignore', detached: true, env: { ...process.env, ...(display ? { DISPLAY: display } : {}), TMPDIR: profile } });
    out[name] = await report;
    // The whole process group: Chromium's helpers too.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, 300));
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch {
      // a helper still writing; the temp dir goes with the next reboot
    }
  }
  return out;
}

const results: Record<string, { ours: Record<string, Report>; upstream: Record<string, Report>; control: Record<string, Report> }> = {};
for (const mode of modes) {
  const display = mode === 'headed' ? await startDisplay() : undefined;
  try {
    log(`${mode}: control (unautomated Chromium)`);
    const c = await control(mode, display?.display);
    log(`${mode}: ours (MCP tools, ${oursBinary ? 'compiled binary' : 'Node package'}, default engine on ${CHROMIUM}${oursArgs.length ? `, ${oursArgs.join(' ')}` : ''})`);
    const o = await viaMcp('ours', mode, display?.display);
    log(`${mode}: upstream (the Playwright MCP CLI, the same tools on the same Chromium)`);
    const u = await viaMcp('upstream', mode, display?.display);
    results[mode] = { ours: o, upstream: u, control: c };
  } finally {
    display?.stop();
  }
}
site.close();

const mark = (r: Report | undefined) => (r?.flagged === null || r === undefined ? `error (${r?.error ?? '?'})` : r.flagged ? 'FLAGGED' : 'pass');
/** Signals that fire on a side but not on the control. */
const beyondControl = (side: Report | undefined, c: Report | undefined) => Object.entries(side?.signals ?? {}).filter(([k, v]) => Boolean(v) && !c?.signals?.[k]).map(([k]) => k);
const lines: string[] = [];
for (const [mode, { ours: o, upstream: u, control: c }] of Object.entries(results)) {
  lines.push(`\n${mode}`, `${'detector'.padEnd(20)} ${'ours'.padEnd(12)} ${'upstream'.padEnd(12)} control`);
  for (const name of Object.keys(DETECTORS)) lines.push(`${name.padEnd(20)} ${mark(o[name]).padEnd(12)} ${mark(u[name]).padEnd(12)} ${mark(c[name])}`);
  const count = (side: Record<string, Report>) => Object.values(side).filter((r) => r.flagged).length;
  lines.push(`flagged by ${count(o)} of ${Object.keys(DETECTORS).length} (ours), ${count(u)} (upstream), ${count(c)} (control)`);
  lines.push(`ours' browser, started ahead: ${oursStart[mode] ?? '?'}`);
  for (const name of Object.keys(DETECTORS)) {
    const extra = beyondControl(o[name], c[name]);
    if (extra.length) lines.push(`  ${name}: on ours, not the control: ${extra.join(', ')}`);
    const upstreamOnly = beyondControl(u[name], c[name]).filter((k) => !extra.includes(k));
    if (upstreamOnly.length) lines.push(`  ${name}: on the upstream, not ours nor the control: ${upstreamOnly.join(', ')}`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
const dir = path.join(ROOT, 'detect', 'results');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(results, null, 2));
process.exit(0);
