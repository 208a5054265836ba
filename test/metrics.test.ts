import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { testEnv } from './helpers/server.ts';

const TOKEN = 'metrics-test-token-3a9c';

function value(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('GET /metrics (Prometheus) during a real session', () => {
  const site = useSite();
  const output = useTempDir('spm-metrics-');
  let server: HttpServer;
  const scrape = async () => {
    const response = await fetch(server.url.replace(/\/mcp$/, '/metrics'), { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
    return response.text();
  };

  before(async () => {
    server = await startHttpServer(testEnv(output.path), ['--http-auth-token', TOKEN]);
  });
  after(async () => {
    await server?.stop();
  });

  test('the same bearer token as the probes guards it', async () => {
    const response = await fetch(server.url.replace(/\/mcp$/, '/metrics'));
    assert.equal(response.status, 401);
  });

  test('sessions, tool calls, latency and browser launches move with real work', async () => {
    const before = await scrape();
    const { client, transport } = await httpClient(server.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    await client.callTool({ name: 'browser_snapshot', arguments: {} });
    await client.callTool({ name: 'browser_click', arguments: { target: 'e999', element: 'nothing' } });
    await client.callTool({ name: 'no_such_tool_at_all', arguments: {} }).catch(() => {});
    const during = await scrape();
    assert.equal(value(during, 'stealth_playwright_mcp_sessions_active'), 1);
    assert.equal(value(during, 'stealth_playwright_mcp_session_starts_total') - value(before, 'stealth_playwright_mcp_session_starts_total'), 1);
    assert.equal(value(during, 'stealth_playwright_mcp_tool_calls_total', 'tool="browser_navigate"'), 1);
    assert.equal(value(during, 'stealth_playwright_mcp_tool_calls_total', 'tool="browser_snapshot"'), 1);
    assert.equal(value(during, 'stealth_playwright_mcp_tool_call_errors_total', 'tool="browser_click"'), 1);
    assert.equal(value(during, 'stealth_playwright_mcp_tool_call_duration_seconds_count', 'tool="browser_navigate"'), 1);
    assert.ok(!during.includes('no_such_tool_at_all'), 'unknown tool names never become label values');
    assert.equal(value(during, 'stealth_playwright_mcp_browser_launches_total'), 1);
    assert.ok(value(during, 'stealth_playwright_mcp_chromium_pss_bytes') > 10_000_000, 'Chromium PSS summed');
    assert.ok(value(during, 'stealth_playwright_mcp_process_resident_memory_bytes') > 0);
    await transport.terminateSession();
    await client.close();
    const afterEnd = await scrape();
    assert.equal(value(afterEnd, 'stealth_playwright_mcp_sessions_active'), 0);
    assert.equal(value(afterEnd, 'stealth_playwright_mcp_session_ends_total', 'reason="deleted by client"'), 1);
  });
});
