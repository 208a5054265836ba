import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RecordingStdioTransport, ROOT } from './server.ts';

export const CHROMIUM = process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium';
/** The installed upstream CLI's entry. */
export const UPSTREAM_CLI = path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');

// The upstream CLI exits on stdin's end without closing its browser, whose
// singleton-socket dir then stays in TMPDIR: one per session, ~400 a CI run.
// Its runs share one TMPDIR of this test process's, removed at its exit.
let upstreamTmp: string | undefined;
function upstreamTmpDir(): string {
  if (upstreamTmp) return upstreamTmp;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-upstream-tmp-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return (upstreamTmp = dir);
}

/** How the upstream CLI starts: headless with an in-memory profile unless a test compares the other choice. */
export interface UpstreamOptions {
  headless?: boolean;
  isolated?: boolean;
}

/** A stdio transport (not started) to the upstream Playwright MCP CLI of package-lock, on the same Chromium: the yardstick. */
export function upstreamTransport(outputDir: string, extraArgs: string[] = [], env: Record<string, string> = {}, { headless = true, isolated = true }: UpstreamOptions = {}): RecordingStdioTransport {
  const args = [UPSTREAM_CLI, '--browser', 'chromium', '--executable-path', CHROMIUM, ...(headless ? ['--headless'] : []), ...(isolated ? ['--isolated'] : []), '--no-sandbox', '--output-dir', outputDir, ...extraArgs];
  return new RecordingStdioTransport(process.execPath, args, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TMPDIR: upstreamTmpDir(), ...env });
}

/** The upstream CLI behind a connected SDK client. */
export async function connectUpstream(outputDir: string, extraArgs: string[] = [], env: Record<string, string> = {}, options: UpstreamOptions = {}) {
  const transport = upstreamTransport(outputDir, extraArgs, env, options);
  const client = new Client({ name: 'stealth-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}
