import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertRunning, onCleanup, TreeWatch, withTimeout } from './cleanup.ts';
import { since } from './stats.ts';

// The servers under comparison, each started the way an MCP client starts it
// (a stdio child), all on the same Chromium executable.

export const ROOT = path.resolve(import.meta.dirname, '..');
// The binary build.ts makes for this machine (it builds linux-x64 and linux-arm64).
export const BINARY = path.join(ROOT, 'dist', 'bin', `stealth-playwright-mcp-linux-${process.arch}`);
const NODE_ENTRY = path.join(ROOT, 'dist', 'node', 'cli.mjs');
const UPSTREAM_CLI = path.join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');

export type VariantId = 'ours-node' | 'ours-bin' | 'upstream-cli';

export interface Variant {
  id: VariantId;
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface Environment {
  /** Private scratch dir of this bench run (outputs, temp profiles); removed at the end. */
  workDir: string;
  chromium: string;
}

// Both sides get the same private TMPDIR and cache dir: Playwright's temp
// profiles and the upstream's browser descriptors land there and are removed
// with the work dir, even when a process had to be killed.
function commonEnv(env: Environment): Record<string, string> {
  const tmp = path.join(env.workDir, 'tmp');
  const cache = path.join(env.workDir, 'cache');
  fs.mkdirSync(tmp, { recursive: true });
  fs.mkdirSync(cache, { recursive: true });
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TMPDIR: tmp, XDG_CACHE_HOME: cache };
}

function oursEnv(env: Environment): Record<string, string> {
  return {
    ...commonEnv(env),
    STEALTH_BINARY_PATH: env.chromium,
    PLAYWRIGHT_MCP_OUTPUT_DIR: path.join(env.workDir, 'out-ours'),
    STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'error',
  };
}

export function oursNode(env: Environment): Variant {
  return { id: 'ours-node', label: `ours, Node ${process.versions.node} (dist/node/cli.mjs)`, command: process.execPath, args: [NODE_ENTRY], env: oursEnv(env) };
}

/** The compiled binary, or why it is left out. */
export function oursBinary(env: Environment): Variant | string {
  if (!fs.existsSync(BINARY)) return `${path.relative(ROOT, BINARY)} does not exist (build it with npm run build:bin); the binary is left out`;
  return { id: 'ours-bin', label: 'ours, compiled binary', command: BINARY, args: [], env: oursEnv(env) };
}

/**
 * The upstream CLI with the config that matches ours: Chromium, headless, the
 * same executable, and `isolated` (launch + new context with an in-memory
 * profile, as our server does) instead of its default persistent profile.
 */
export function upstreamConfig(env: Environment): Record<string, unknown> {
  return {
    browser: { browserName: 'chromium', isolated: true, launchOptions: { executablePath: env.chromium, headless: true } },
    outputDir: path.join(env.workDir, 'out-upstream'),
  };
}

export function upstreamCli(env: Environment): Variant {
  const configFile = path.join(env.workDir, 'upstream-config.json');
  fs.writeFileSync(configFile, JSON.stringify(upstreamConfig(env), null, 2));
  return { id: 'upstream-cli', label: 'upstream @playwright/mcp CLI', command: process.execPath, args: [UPSTREAM_CLI, '--config', configFile], env: commonEnv(env) };
}

export interface StdioServer {
  variant: Variant;
  client: Client;
  pid: number;
  /** Spawn → initialize response received, in ms. */
  initMs: number;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  stderrTail(): string;
  /** Closes stdin, waits for a clean exit, kills whatever is left. */
  close(): Promise<void>;
}

const CALL_TIMEOUT_MS = 60_000;

export async function startStdio(variant: Variant, timeoutMs = 30_000): Promise<StdioServer> {
  assertRunning();
  const transport = new StdioClientTransport({ command: variant.command, args: variant.args, env: variant.env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const client = new Client({ name: 'spm-bench', version: '1.0.0' });
  let watch: TreeWatch | undefined;
  const forget = onCleanup(`${variant.id} server`, async () => {
    watch ??= transport.pid ? new TreeWatch(transport.pid) : undefined;
    watch?.killEverything();
    await transport.close().catch(() => {});
  });
  const started = performance.now();
  try {
    await withTimeout(client.connect(transport), timeoutMs, `${variant.id}: spawn → initialize`);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nstderr: ${stderr}`);
  }
  const initMs = since(started);
  const pid = transport.pid!;
  watch = new TreeWatch(pid);
  let closed: Promise<void> | undefined;
  return {
    variant,
    client,
    pid,
    initMs,
    call: async (name, args = {}) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS })) as CallToolResult;
      if (result.isError) throw new Error(`${variant.id}: ${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
      return result;
    },
    stderrTail: () => stderr,
    close: () =>
      (closed ??= (async () => {
        watch!.sample();
        await withTimeout(client.close(), 10_000, `${variant.id}: close`).catch(() => {});
        // A clean exit closes the browser; anything still running after that was orphaned.
        await watch!.settle(3_000);
        const leftovers = watch!.killEverything();
        if (leftovers > 0) process.stderr.write(`bench: killed ${leftovers} process(es) left by ${variant.id}\n`);
        forget();
      })()),
  };
}
