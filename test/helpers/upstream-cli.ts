import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RecordingStdioTransport, ROOT } from './server.ts';

export const CHROMIUM = process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium';

/** A stdio transport (not started) to the upstream Playwright MCP CLI of package-lock, on the same Chromium: the yardstick. */
export function upstreamTransport(outputDir: string, extraArgs: string[] = [], env: Record<string, string> = {}): RecordingStdioTransport {
  const cli = path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');
  const args = [cli, '--browser', 'chromium', '--executable-path', CHROMIUM, '--headless', '--isolated', '--no-sandbox', '--output-dir', outputDir, ...extraArgs];
  return new RecordingStdioTransport(process.execPath, args, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env });
}

/** The upstream CLI behind a connected SDK client. */
export async function connectUpstream(outputDir: string, extraArgs: string[] = [], env: Record<string, string> = {}) {
  const transport = upstreamTransport(outputDir, extraArgs, env);
  const client = new Client({ name: 'stealth-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}
