import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { browserProcessesOf } from './processes.ts';
import { serverCommand } from './server.ts';

export interface HttpServer {
  url: string;
  origin: string;
  child: ChildProcess;
  stderr(): string;
  /** Everything on stdout: the URL line, then the request lines. */
  stdout(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Chromium processes currently under the server. */
  browsers(): number[];
  stop(): Promise<void>;
}

/** Starts the server in HTTP mode on a free port; resolves once it prints its URL. */
export async function startHttpServer(env: Record<string, string>, args: string[] = []): Promise<HttpServer> {
  const [command, baseArgs] = serverCommand();
  // Suites that count a session's browsers start without the warm pool (test/warm-start.test.ts covers it).
  const pool = args.includes('--http-prewarm') || env.STEALTH_PLAYWRIGHT_MCP_HTTP_PREWARM ? [] : ['--http-prewarm', '0'];
  const child = spawn(command, [...baseArgs, '--transport', 'streamable-http', '--http-port', '0', ...pool, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const line = stdout.split('\n')[0]!;
      // The URL line, or its JSON form under --log-format json.
      if (stdout.includes('\n') && line) resolve(line.startsWith('{') ? (JSON.parse(line) as { url: string }).url : line.trim());
    });
    void exit.then(({ code }) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
  return {
    url,
    origin: new URL(url).origin,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    exit,
    browsers: () => browserProcessesOf(child.pid!),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exit;
    },
  };
}

export async function httpClient(url: string, init: RequestInit = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'stealth-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: init });
  await client.connect(transport);
  return { client, transport };
}

/** A raw JSON-RPC initialize body, for tests that look at HTTP status codes. */
export function initializeBody(meta?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
      ...(meta === undefined ? {} : { _meta: { 'stealth-playwright-mcp/session': meta } }),
    },
  });
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
