import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The server under test: the built npm entry by default, or any command in
 * STEALTH_TEST_SERVER (e.g. the compiled binary), so one suite checks both.
 */
export function serverCommand(): [string, string[]] {
  const custom = process.env.STEALTH_TEST_SERVER;
  if (custom) return [custom, []];
  return [process.execPath, [path.join(ROOT, 'dist', 'node', 'cli.mjs')]];
}

/** Settings every test server gets: stock Debian Chromium, quiet, a private output dir. */
export function testEnv(outputDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    STEALTH_BINARY_PATH: process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium',
    PLAYWRIGHT_MCP_OUTPUT_DIR: outputDir,
    STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'debug',
    ...extra,
  };
}

/**
 * A stdio client transport that also keeps every raw stdout line, so a test
 * can check that nothing but JSON-RPC ever reaches stdout.
 */
export class RecordingStdioTransport implements Transport {
  readonly stdoutLines: string[] = [];
  readonly nonJsonLines: string[] = [];
  stderr = '';
  child: ChildProcess | undefined;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #pending = '';

  readonly #command: string;
  readonly #args: string[];
  readonly #env: Record<string, string>;
  readonly #cwd: string | undefined;

  constructor(command: string, args: string[], env: Record<string, string>, cwd?: string) {
    this.#command = command;
    this.#args = args;
    this.#env = env;
    this.#cwd = cwd;
  }

  async start(): Promise<void> {
    const child = spawn(this.#command, this.#args, { env: this.#env, cwd: this.#cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      this.#pending += chunk.toString();
      let newline: number;
      while ((newline = this.#pending.indexOf('\n')) !== -1) {
        const line = this.#pending.slice(0, newline).replace(/\r$/, '');
        this.#pending = this.#pending.slice(newline + 1);
        this.stdoutLines.push(line);
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(line);
        } catch {
          this.nonJsonLines.push(line);
          continue;
        }
        this.onmessage?.(message);
      }
    });
    child.on('close', () => this.onclose?.());
    child.on('error', (error) => this.onerror?.(error));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child?.stdin?.write(serializeMessage(message));
  }

  /** Ends stdin, the way an MCP client disconnects; does not wait for exit. */
  async close(): Promise<void> {
    this.child?.stdin?.end();
  }

  get pid(): number {
    return this.child!.pid!;
  }
}

export interface Connected {
  client: Client;
  transport: RecordingStdioTransport;
}

export async function connect(env: Record<string, string>, args: string[] = []): Promise<Connected> {
  const [command, baseArgs] = serverCommand();
  const transport = new RecordingStdioTransport(command, [...baseArgs, ...args], env);
  const client = new Client({ name: 'stealth-test-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion with stdin closed and collects its output. */
export function runToEnd(command: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI to completion (no MCP), for --help, doctor and bad-config tests. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Finished> {
  const [command, baseArgs] = serverCommand();
  return runToEnd(command, [...baseArgs, ...args], env, timeoutMs);
}

export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** A local tool's structured answer (stealth_bridge_info, stealth_binary_info). */
export async function localInfo(client: ToolCaller, name: 'stealth_bridge_info' | 'stealth_binary_info' = 'stealth_bridge_info'): Promise<any> {
  return ((await client.callTool({ name, arguments: {} })) as { structuredContent: unknown }).structuredContent;
}

/** Ends stdio servers a suite started: stdin closed, then the exit awaited. */
export async function closeAll(servers: Connected[]): Promise<void> {
  for (const s of servers) {
    await s.client.close().catch(() => {});
    await s.transport.exit;
  }
}
