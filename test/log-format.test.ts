import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpClient, startHttpServer } from './helpers/http-server.ts';
import { testEnv } from './helpers/server.ts';

const TOKEN = 'log-format-token-91b2e0';

test('--log-format json: every line on stdout and stderr is one JSON object; request lines carry method, path, status, duration and session, never the token', async () => {
  const server = await startHttpServer(testEnv('/tmp', { STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'info' }), ['--log-format', 'json', '--http-auth-token', TOKEN]);
  try {
    const { client, transport } = await httpClient(`${server.url}?token=${TOKEN}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await client.listTools();
    await transport.terminateSession();
    await client.close();
    await fetch(server.url.replace('/mcp', '/readyz'));
  } finally {
    await server.stop();
  }
  const parse = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const out = parse(server.stdout());
  const err = parse(server.stderr());
  assert.equal(out[0]!.event, 'listening');
  const requests = out.filter((l) => l.method);
  assert.ok(requests.some((l) => l.method === 'POST' && l.path === '/mcp' && l.status === 200 && typeof l.durationMs === 'number' && typeof l.session === 'string'));
  assert.ok(requests.some((l) => l.method === 'GET' && l.path === '/readyz' && l.status === 401 && l.session === null));
  assert.ok(err.length > 0 && err.every((l) => typeof l.time === 'string' && typeof l.level === 'string' && typeof l.message === 'string'));
  assert.ok(!server.stdout().includes(TOKEN) && !server.stderr().includes(TOKEN), 'no token in any log line');
});
