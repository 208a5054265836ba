import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LATEST_PROTOCOL_VERSION as SDK_LATEST, SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../src/transport/early-stdio.ts';
import { useTempDir } from './helpers/fixtures.ts';
import { waitFor } from './helpers/processes.ts';
import { RecordingStdioTransport, serverCommand, testEnv } from './helpers/server.ts';
import { upstreamTransport } from './helpers/upstream-cli.ts';

// Over stdio our server answers `initialize` before the SDK is loaded
// (transport/early-stdio.ts); the real Server's own answer is dropped. So the
// early answer must negotiate exactly as the SDK does, and as the upstream CLI
// (same SDK, bundled) answers the same request.

const VERSIONS = ['2024-10-07', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '1999-01-01', 'not-a-version'];

/** The protocolVersion (or error code) a fresh server answers to a first initialize asking for `requested`. */
async function negotiated(transport: RecordingStdioTransport, requested: string, clientInfo: unknown = { name: 'early', version: '1' }): Promise<string | undefined> {
  await transport.start();
  try {
    transport.child!.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: requested, capabilities: {}, clientInfo } })}\n`);
    const answer = () => transport.stdoutLines.map((line) => JSON.parse(line) as { id?: number; result?: { protocolVersion?: string }; error?: { code: number } }).find((m) => m.id === 1);
    assert.ok(await waitFor(() => answer() !== undefined, 30_000, 20), `no answer; stderr: ${transport.stderr.slice(-1000)}`);
    assert.equal(transport.stdoutLines.length, 1, 'one answer to one initialize');
    return answer()!.result?.protocolVersion ?? `error ${answer()!.error?.code}`;
  } finally {
    await transport.close();
    await transport.exit;
  }
}

describe('stdio: the early initialize answer', () => {
  const dir = useTempDir('early-stdio');

  test('its protocol versions are the SDK\'s', () => {
    assert.equal(LATEST_PROTOCOL_VERSION, SDK_LATEST);
    assert.deepEqual(SUPPORTED_PROTOCOL_VERSIONS, SDK_SUPPORTED);
  });

  test('each requested protocol version is answered as the upstream CLI answers it', { timeout: 240_000 }, async () => {
    const [command, args] = serverCommand();
    for (const version of VERSIONS) {
      const ours = await negotiated(new RecordingStdioTransport(command, args, testEnv(`${dir.path}/ours`)), version);
      const upstream = await negotiated(upstreamTransport(`${dir.path}/upstream`), version);
      assert.equal(ours, upstream, `requested ${version}`);
    }
  });

  test('an initialize without a valid clientInfo is refused as the upstream CLI refuses it, not answered early', { timeout: 60_000 }, async () => {
    const [command, args] = serverCommand();
    const ours = await negotiated(new RecordingStdioTransport(command, args, testEnv(`${dir.path}/ours`)), '2025-06-18', { name: 'no version' });
    const upstream = await negotiated(upstreamTransport(`${dir.path}/upstream`), '2025-06-18', { name: 'no version' });
    assert.match(upstream ?? '', /^error /);
    assert.equal(ours, upstream);
  });
});
