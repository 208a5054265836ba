import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { httpClient, initializeBody, MCP_HEADERS, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { isAlive, waitFor } from './helpers/processes.ts';
import { testEnv, textOf } from './helpers/server.ts';
import { useSite, useTempDir } from './helpers/fixtures.ts';

describe('streamable HTTP: many clients, one isolated browser each', () => {
  const site = useSite();
  const output = useTempDir('spm-http-');
  let server: HttpServer;

  before(async () => {
    server = await startHttpServer(testEnv(output.path), ['--http-session-max', '2']);
  });
  after(async () => {
    await server?.stop();
  });

  test('prints the listening URL on stdout and logs requests on stderr', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  test('two clients at once each see only their own page and tabs; the cap refuses a third', async () => {
    const [a, b] = await Promise.all([httpClient(server.url), httpClient(server.url)]);
    assert.notEqual(a.transport.sessionId, b.transport.sessionId);
    const [navA, navB] = await Promise.all([
      a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } }),
      b.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } }),
    ]);
    assert.match(textOf(navA), /Bridge test home/);
    assert.match(textOf(navB), /Second page/);
    const tabsA = textOf(await a.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }));
    const tabsB = textOf(await b.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }));
    assert.match(tabsA, /Bridge test home/);
    assert.doesNotMatch(tabsA, /Second page/);
    assert.match(tabsB, /Second page/);
    assert.doesNotMatch(tabsB, /Bridge test home/);
    const infoA = (await a.client.callTool({ name: 'stealth_bridge_info', arguments: {} })).structuredContent as any;
    assert.equal(infoA.transport, 'streamable-http');
    assert.equal(infoA.session.id, a.transport.sessionId);
    assert.equal(path.basename(infoA.session.outputDir), a.transport.sessionId);
    assert.equal(server.browsers().filter((pid) => isAlive(pid)).length > 1, true, 'each session launched a browser');

    // A third initialize while two sessions live: 503 + Retry-After + JSON-RPC body.
    const refused = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody() });
    assert.equal(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const body = await refused.json();
    assert.equal(body.jsonrpc, '2.0');
    assert.match(body.error.message, /session limit \(2\)/);
    const readyz = await fetch(`${server.origin}/readyz`);
    assert.equal(readyz.status, 503);
    assert.deepEqual((await readyz.json()).sessions, { active: 2, pending: 0, max: 2 });

    // The existing sessions are unaffected.
    const again = await a.client.callTool({ name: 'browser_snapshot', arguments: {} });
    assert.match(textOf(again), /Click me/);

    // DELETE ends a session: its id is gone (404) and a slot is free again.
    const idA = a.transport.sessionId!;
    await a.transport.terminateSession();
    await a.client.close();
    const gone = await fetch(server.url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': idA }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    assert.equal(gone.status, 404);
    assert.equal((await gone.json()).error.code, -32001);
    assert.equal((await fetch(`${server.origin}/readyz`)).status, 200);
    await b.transport.terminateSession();
    await b.client.close();
  });

  test('initialize metadata and headers choose headless per session; a bad field is named', async () => {
    const viaMeta = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody({ headless: 'no' }) });
    assert.equal(viaMeta.status, 400);
    const error = (await viaMeta.json()).error;
    assert.equal(error.code, -32602);
    assert.match(error.message, /stealth-playwright-mcp\/session.*headless/);

    const viaHeader = await fetch(server.url, { method: 'POST', headers: { ...MCP_HEADERS, 'x-stealth-session-headless': 'perhaps' }, body: initializeBody() });
    assert.equal(viaHeader.status, 400);
    assert.match((await viaHeader.json()).error.message, /x-stealth-session-headless/);

    const unknown = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody({ headles: true }) });
    assert.equal(unknown.status, 400);
    assert.match((await unknown.json()).error.message, /headles/);

    // Valid header: the session reports its own choice (not launched headed: no display here).
    const c = await httpClient(server.url, { headers: { 'x-stealth-session-headless': 'false' } });
    const info = (await c.client.callTool({ name: 'stealth_bridge_info', arguments: {} })).structuredContent as any;
    assert.equal(info.session.headless, false);
    const headed = await c.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
    assert.equal(headed.isError, true, 'no display in this test server');
    assert.match(textOf(headed), /no display.*set headless true/s);
    await c.transport.terminateSession();
    await c.client.close();
  });

  test('unknown session id → 404 JSON-RPC; no session id on a non-initialize → 400', async () => {
    const unknown = await fetch(server.url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(unknown.status, 404);
    assert.match((await unknown.json()).error.message, /initialize a new one/);
    const missing = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(missing.status, 400);
    const wrongMethod = await fetch(server.url, { method: 'PUT', headers: MCP_HEADERS, body: '{}' });
    assert.equal(wrongMethod.status, 405);
    assert.equal((await fetch(`${server.origin}/elsewhere`)).status, 404);
    const notJson = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: '{not json' });
    assert.equal(notJson.status, 400);
    assert.equal((await notJson.json()).error.code, -32700);
  });

  test('DNS rebinding: a foreign Host or Origin is refused on a loopback bind', async () => {
    const http = await import('node:http');
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(server.url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(initializeBody());
      });
    assert.equal(await status({ host: 'evil.example:80' }), 403);
    assert.equal(await status({ origin: 'https://evil.example' }), 403);
    assert.equal(await status({ host: `localhost:${new URL(server.url).port}` }), 200);
  });

  test('healthz answers with version and uptime', async () => {
    const res = await fetch(`${server.origin}/healthz`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, 'ok');
    assert.match(body.version, /^\d+\.\d+\.\d+/);
    assert.ok(body.uptimeMs >= 0);
  });

  test('request log lines carry method, path, status, duration and session id', () => {
    // Request lines on stdout in HTTP mode, as the specification asks; not on stderr.
    assert.match(server.stdout(), /POST \/mcp 200 \d+ms session=[0-9a-f-]{36}/);
    assert.match(server.stdout(), /GET \/readyz 503 \d+ms session=-/);
    assert.doesNotMatch(server.stderr(), /POST \/mcp 200/);
  });
});

describe('streamable HTTP: idle expiry, body limit, shutdown', () => {
  const site = useSite();
  const output = useTempDir('spm-http2-');

  test('an idle session expires: its browser is killed and its id answers 404', async () => {
    const server = await startHttpServer(testEnv(output.path), ['--http-session-idle-ttl-ms', '1500']);
    try {
      const c = await httpClient(server.url);
      await c.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } });
      const browsers = server.browsers();
      assert.ok(browsers.length > 0);
      assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 10_000), 'browser killed after the idle TTL');
      assert.ok(await waitFor(() => server.stderr().includes('closed (idle)'), 10_000), 'the session is reported closed');
      const res = await fetch(server.url, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': c.transport.sessionId! }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) });
      assert.equal(res.status, 404);
    } finally {
      await server.stop();
    }
  });

  test('a body over the limit gets 413 and the server keeps serving', async () => {
    const server = await startHttpServer(testEnv(output.path), ['--http-body-limit-bytes', '2048']);
    try {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(5000) } });
      const res = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: big });
      assert.equal(res.status, 413);
      assert.match((await res.json()).error.message, /limit 2048/);
      assert.equal((await fetch(`${server.origin}/healthz`)).status, 200);
    } finally {
      await server.stop();
    }
  });

  test('SIGTERM with live sessions closes every browser and exits 0', async () => {
    const server = await startHttpServer(testEnv(output.path));
    const clients = await Promise.all([httpClient(server.url), httpClient(server.url)]);
    await Promise.all(clients.map((c) => c.client.callTool({ name: 'browser_navigate', arguments: { url: site.url } })));
    const browsers = server.browsers();
    assert.ok(browsers.length >= 2);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.stderr());
    assert.ok(await waitFor(() => browsers.every((pid) => !isAlive(pid)), 3000), 'no Chromium left');
  });
});
