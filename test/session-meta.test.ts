import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { MCP_HEADERS, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { testEnv } from './helpers/server.ts';

const NS = 'stealth-playwright-mcp/session';

function initialize(meta: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'meta', version: '1' }, _meta: meta } });
}

// The specification names flat keys (`cdpEnabled`, `headless`, `proxy`, ...) in
// the initialize request's `_meta`; the namespaced object is ours.
describe('initialize _meta: flat session keys and the namespaced object', () => {
  const output = useTempDir('spm-meta-');
  let server: HttpServer;
  before(async () => {
    server = await startHttpServer(testEnv(output.path));
  });
  after(async () => {
    await server?.stop();
  });

  async function sessionInfo(meta: Record<string, unknown>) {
    const response = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initialize(meta) });
    assert.equal(response.status, 200, await response.clone().text());
    const sessionId = response.headers.get('mcp-session-id')!;
    await response.text();
    const call = await fetch(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'stealth_bridge_info', arguments: {} } }),
    });
    const text = await call.text();
    const data = JSON.parse(text.includes('data: ') ? text.split('data: ')[1]!.split('\n')[0]! : text);
    await fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    return data.result.structuredContent.session;
  }

  test('flat keys apply; unknown top-level keys of other software are ignored', async () => {
    const session = await sessionInfo({ contextOptions: { colorScheme: 'dark' }, progressToken: 7, 'other.vendor/key': { x: 1 } });
    assert.equal(session.contextOptions.colorScheme, 'dark');
  });

  test('the namespaced value wins over a flat one', async () => {
    const session = await sessionInfo({ contextOptions: { colorScheme: 'dark' }, [NS]: { contextOptions: { colorScheme: 'light' } } });
    assert.equal(session.contextOptions.colorScheme, 'light');
  });

  test('a known flat key with a bad value is refused, naming it', async () => {
    const response = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initialize({ headless: 'maybe' }) });
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.match(body.error.message, /_meta\.headless/);
  });
});
