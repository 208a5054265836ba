import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { waitFor } from './helpers/processes.ts';
import { RecordingStdioTransport, serverCommand, testEnv } from './helpers/server.ts';
import { upstreamTransport } from './helpers/upstream-cli.ts';

// Our server and the upstream CLI answer MCP through the same SDK (the copy
// bundled in playwright-core): a client that sends a bad request gets the
// same JSON-RPC error from either, code and message. Raw lines over stdio,
// side by side, after one ordinary handshake.

const REQUESTS: [string, Record<string, unknown>][] = [
  ['tools/call without params', { method: 'tools/call' }],
  ['tools/call without a name', { method: 'tools/call', params: { arguments: {} } }],
  ['tools/call with a name that is no string', { method: 'tools/call', params: { name: 7 } }],
  ['tools/call of a tool nobody has', { method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }],
  ['tools/list with a cursor that is no string', { method: 'tools/list', params: { cursor: 5 } }],
  ['a method nobody has', { method: 'no/such/method', params: {} }],
  ['prompts/list (a capability neither offers)', { method: 'prompts/list' }],
  ['ping', { method: 'ping' }],
];

type Answer = { result?: unknown; error?: { code: number; message: string } };

async function answers(transport: RecordingStdioTransport): Promise<Map<string, string>> {
  await transport.start();
  const send = (message: Record<string, unknown>) => transport.child!.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const byId = (id: number) => transport.stdoutLines.map((line) => JSON.parse(line) as Answer & { id?: number }).find((m) => m.id === id);
  try {
    send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'parity', version: '1' } } });
    assert.ok(await waitFor(() => byId(0) !== undefined, 30_000, 20), `no initialize answer; stderr: ${transport.stderr.slice(-1000)}`);
    send({ method: 'notifications/initialized' });
    REQUESTS.forEach(([, request], i) => send({ id: i + 1, ...request }));
    assert.ok(await waitFor(() => REQUESTS.every((_, i) => byId(i + 1) !== undefined), 60_000, 20), `not every request answered; stderr: ${transport.stderr.slice(-1000)}`);
    // What a client reads: the error code and message, or that there was a result (tools differ in number).
    return new Map(REQUESTS.map(([name], i) => {
      const answer = byId(i + 1)!;
      return [name, answer.error ? `error ${answer.error.code}: ${answer.error.message}` : `result${(answer.result as { isError?: boolean }).isError ? ' (isError)' : ''}`];
    }));
  } finally {
    await transport.close();
    await transport.exit;
  }
}

describe('protocol errors, ours beside the upstream CLI', () => {
  const dir = useTempDir('parity');

  test('every bad request gets the error the upstream CLI gives, code and message', { timeout: 120_000 }, async (t) => {
    const [command, args] = serverCommand();
    const [ours, upstream] = await Promise.all([
      answers(new RecordingStdioTransport(command, args, testEnv(`${dir.path}/ours`))),
      answers(upstreamTransport(`${dir.path}/upstream`)),
    ]);
    for (const [name] of REQUESTS) {
      t.diagnostic(`${name}: ${upstream.get(name)!.slice(0, 160)}`);
      assert.equal(ours.get(name), upstream.get(name), name);
    }
  });
});
