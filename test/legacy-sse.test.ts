import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { waitFor } from './helpers/processes.ts';
import { testEnv, textOf, localInfo } from './helpers/server.ts';

const TOKEN = 'legacy-sse-token-5e1d';

// Older clients speak the HTTP+SSE transport the upstream serves beside /mcp.
describe('legacy SSE transport (GET /sse, POST /sse?sessionId=)', () => {
  const site = useSite();
  const output = useTempDir('spm-sse-');
  let server: HttpServer;
  before(async () => {
    server = await startHttpServer(testEnv(output.path), ['--http-auth-token', TOKEN, '--http-session-max', '2']);
  });
  after(async () => {
    await server?.stop();
  });

  const sseClient = async (token = TOKEN) => {
    const transport = new SSEClientTransport(new URL(`${server.origin}/sse`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }) },
    });
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(transport);
    return client;
  };

  test('a session with its own browser: tools work, and closing the stream ends it and its browser', async () => {
    const client = await sseClient();
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('browser_navigate') && names.includes('stealth_bridge_info'));
    const nav = await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    assert.match(textOf(nav), /Bridge test home/);
    assert.ok(server.browsers().length > 0);
    const info = (await localInfo(client));
    assert.equal(info.unsafeCodeAllowed, false, 'HTTP rules apply');
    await client.close();
    assert.ok(await waitFor(() => server.browsers().length === 0, 10_000), 'the browser went with the stream');
  });

  test('the same token and session cap as /mcp', async () => {
    const unauthorized = await fetch(`${server.origin}/sse`, { headers: { accept: 'text/event-stream' } });
    assert.equal(unauthorized.status, 401);
    await unauthorized.body?.cancel();
    const a = await sseClient();
    const b = await sseClient();
    const full = await fetch(`${server.origin}/sse`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${TOKEN}` } });
    assert.equal(full.status, 503);
    await full.body?.cancel();
    const unknown = await fetch(`${server.origin}/sse?sessionId=nope`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(unknown.status, 404);
    await a.close();
    await b.close();
  });
});
