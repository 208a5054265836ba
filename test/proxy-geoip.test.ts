import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { after, before, describe, test } from 'node:test';
import { httpClient, initializeBody, MCP_HEADERS, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { startEchoSite, startHttpProxy, startSocksProxy, type EchoSite, type TestProxy } from './helpers/proxies.ts';
import { connect, runCli, testEnv, textOf } from './helpers/server.ts';

// A public address DB-IP Lite places in Berlin: the IP-echo endpoint claims it is ours.
const BERLIN_IP = '85.214.132.117';
const HTTP_PASS = 'p@ss:w=rd/1';
const SOCKS_PASS = 's0cks=p@ss';

async function pageText(client: Client): Promise<string> {
  return textOf(await client.callTool({ name: 'browser_evaluate', arguments: { function: '() => document.body.innerText' } }));
}

describe('proxies and GeoIP matching (real proxies on 127.0.0.1, real city database)', () => {
  let site: EchoSite;
  let httpProxy: TestProxy;
  let socksProxy: TestProxy;
  let server: HttpServer;
  let outputDir: string;

  before(async () => {
    site = await startEchoSite(BERLIN_IP);
    httpProxy = await startHttpProxy('alice', HTTP_PASS);
    socksProxy = await startSocksProxy('bob', SOCKS_PASS);
    outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-proxy-'));
    server = await startHttpServer(testEnv(outputDir), ['--geoip-ip-echo-urls', site.ipEchoUrl, '--geoip-timeout-ms', '5000']);
  });
  after(async () => {
    await server?.stop();
    await Promise.all([site?.close(), httpProxy?.close(), socksProxy?.close()]);
    fs.rmSync(outputDir, { recursive: true, force: true });
  });

  const leaks = (text: string) => [HTTP_PASS, encodeURIComponent(HTTP_PASS), SOCKS_PASS, encodeURIComponent(SOCKS_PASS)].filter((p) => text.includes(p));

  test('two sessions at once, one through an HTTP proxy with auth, one through SOCKS5 with auth (relayed); credentials masked', async () => {
    const target = new URL(site.url).host;
    const [a, b] = await Promise.all([
      httpClient(server.url, { headers: { 'X-Stealth-Session-Proxy': httpProxy.url } }),
      httpClient(server.url, { headers: { 'X-Stealth-Session-Proxy': socksProxy.url } }),
    ]);
    await Promise.all([
      a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/via-http` } }),
      b.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/via-socks` } }),
    ]);
    assert.match(await pageText(a.client), /accept-language=/);
    assert.match(await pageText(b.client), /accept-language=/);
    assert.ok(httpProxy.seen.includes(target), `the HTTP proxy carried the page: ${httpProxy.seen}`);
    assert.ok(socksProxy.seen.includes(target), `the SOCKS5 proxy carried the page: ${socksProxy.seen}`);
    const infoA = (await a.client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any };
    const infoB = (await b.client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any };
    assert.equal(infoA.structuredContent.session.proxy.server, `http://***:***@127.0.0.1:${httpProxy.port}`);
    assert.equal(infoA.structuredContent.session.proxy.mode, 'driver');
    assert.equal(infoB.structuredContent.session.proxy.server, `socks5://***:***@127.0.0.1:${socksProxy.port}`);
    assert.equal(infoB.structuredContent.session.proxy.mode, 'relay');
    assert.deepEqual(leaks(JSON.stringify([infoA, infoB])), []);
    // The relay is the session's: it goes with it.
    const relayArg = infoB.structuredContent.session.launch.args as string[];
    assert.ok(!relayArg.some((arg) => arg.includes(SOCKS_PASS)));
    await Promise.all([a.transport.terminateSession(), b.transport.terminateSession()]);
    await Promise.all([a.client.close(), b.client.close()]);
    assert.deepEqual(leaks(server.stderr()), [], 'no credential in the server log');
  });

  test('wrong credentials, unreachable and malformed proxies refuse the initialize with the reason and no secret', async () => {
    const cases: [string, number, RegExp][] = [
      [httpProxy.url.replace(encodeURIComponent(HTTP_PASS), 'wrong'), 502, /rejected the user name or password.*Fix: correct the user name and password/],
      [socksProxy.url.replace(encodeURIComponent(SOCKS_PASS), 'wrong'), 502, /rejected the user name or password/],
      [`http://127.0.0.1:${httpProxy.port}`, 502, /requires credentials/],
      ['http://user:secretpw@127.0.0.1:1', 502, /is unreachable: ECONNREFUSED.*Fix: check that the proxy runs/],
      ['ftp://user:secretpw@127.0.0.1:21', 400, /proxy.*scheme ftp:\/\/ is not supported/],
      ['http://user:secretpw@127.0.0.1:99999', 400, /proxy.*(not a valid URL|port)/],
    ];
    for (const [proxy, status, message] of cases) {
      const response = await fetch(server.url, { method: 'POST', headers: MCP_HEADERS, body: initializeBody({ proxy }) });
      const body = await response.json();
      assert.equal(response.status, status, `${proxy}: ${JSON.stringify(body)}`);
      assert.match(body.error.message, message);
      for (const secret of ['wrong', 'secretpw', HTTP_PASS]) assert.ok(!body.error.message.includes(secret), `no secret in: ${body.error.message}`);
    }
    assert.ok(httpProxy.refused > 0 && socksProxy.refused > 0, 'the proxies saw the bad credentials');
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const secret of ['secretpw', HTTP_PASS]) assert.ok(!server.stderr().includes(secret));
  });

  test('GeoIP: the exit IP (asked through the same proxy) sets timezone, navigator.language and Accept-Language in the page', async () => {
    const before = httpProxy.seen.length;
    const { client, transport } = await httpClient(server.url, { headers: { 'X-Stealth-Session-Proxy': httpProxy.url, 'X-Stealth-Session-Geoip-Proxy-Match': 'true' } });
    assert.ok(httpProxy.seen.slice(before).includes(new URL(site.url).host), 'the IP-echo request went through the proxy');
    await client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/geo` } });
    const page = await pageText(client);
    assert.match(page, /tz=Europe\/Berlin lang=de-DE langs=de-DE\|de/);
    assert.match(page, /accept-language=de-DE,de;q=0\.9/);
    const info = ((await client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any }).structuredContent;
    assert.equal(info.session.geoip.matched, true);
    assert.equal(info.session.geoip.exitIp, BERLIN_IP);
    assert.equal(info.session.geoip.countryCode, 'DE');
    assert.equal(info.session.geoip.timezone, 'Europe/Berlin');
    assert.equal(info.session.geoip.locale, 'de-DE');
    assert.match(info.session.geoip.attribution, /DB-IP/);
    assert.ok(info.session.launch.args.includes('--fingerprint-timezone=Europe/Berlin'), 'the stealth flags carry it, not CDP emulation');
    assert.deepEqual(leaks(JSON.stringify(info)), []);
    await transport.terminateSession();
    await client.close();
  });

  test('stdio: a failed GeoIP lookup fails the session with the reason, unless the operator allows unmatched', async () => {
    const env = testEnv(outputDir, { STEALTH_PLAYWRIGHT_MCP_GEOIP_PROXY_MATCH: 'true', STEALTH_PLAYWRIGHT_MCP_GEOIP_IP_ECHO_URLS: 'http://127.0.0.1:1/ip', STEALTH_PLAYWRIGHT_MCP_GEOIP_TIMEOUT_MS: '2000' });
    const failed = await runCli([], env);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /GeoIP matching \(geoipProxyMatch\) failed: no IP-echo endpoint gave the exit IP \(http:\/\/127\.0\.0\.1:1\/ip: connect ECONNREFUSED.*Fix:/);
    const { client, transport } = await connect({ ...env, STEALTH_PLAYWRIGHT_MCP_GEOIP_ALLOW_UNMATCHED: 'true' });
    const info = ((await client.callTool({ name: 'stealth_bridge_info', arguments: {} })) as { structuredContent: any }).structuredContent;
    assert.equal(info.session.geoip.matched, false);
    assert.match(info.session.geoip.reason, /ECONNREFUSED/);
    await client.close();
    await transport.exit;
  });

  test('process-wide proxy settings: a malformed URL stops the start-up without echoing it', async () => {
    const bad = await runCli([], testEnv(outputDir, { PLAYWRIGHT_MCP_PROXY_SERVER: 'http://user:topsecret@[bad' }));
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /PLAYWRIGHT_MCP_PROXY_SERVER: "<redacted>" \(malformed proxy URL: it is not a valid URL/);
    assert.ok(!bad.stderr.includes('topsecret'));
  });
});
