import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { initializeBody, MCP_HEADERS, startHttpServer } from './helpers/http-server.ts';
import { runCli, testEnv } from './helpers/server.ts';

const TOKEN = 'test-token-5b2c1e';

describe('streamable HTTP: auth, HTTPS, refusal of unsafe exposure', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-sec-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('bearer auth is required on /mcp, /healthz and /readyz alike', async () => {
    const server = await startHttpServer(testEnv(dir), ['--http-auth-token', TOKEN]);
    try {
      for (const target of [server.url, `${server.origin}/healthz`, `${server.origin}/readyz`]) {
        const isMcp = target === server.url;
        const request = (authorization?: string) =>
          fetch(target, {
            method: isMcp ? 'POST' : 'GET',
            headers: { ...MCP_HEADERS, ...(authorization ? { authorization } : {}) },
            ...(isMcp ? { body: initializeBody() } : {}),
          });
        for (const bad of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN} extra`]) {
          const res = await request(bad);
          assert.equal(res.status, 401, `${target} with ${bad}`);
          assert.equal(res.headers.get('www-authenticate'), 'Bearer');
          const body = await res.json();
          assert.ok(isMcp ? body.error.message.includes('Unauthorized') : body.status === 'unauthorized');
        }
        const ok = await request(`bearer ${TOKEN}`);
        assert.equal(ok.status, 200, target);
        if (isMcp) {
          const id = ok.headers.get('mcp-session-id');
          assert.ok(id);
          await ok.body?.cancel();
          await fetch(server.url, { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': id! } });
        }
      }
      assert.doesNotMatch(server.stderr(), new RegExp(TOKEN), 'the token never reaches the log');
    } finally {
      await server.stop();
    }
  });

  test('HTTPS with a certificate generated here', async () => {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const server = await startHttpServer(testEnv(dir), ['--http-protocol', 'https', '--https-cert', cert, '--https-key', key]);
    try {
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = https.request(server.url, { method: 'POST', headers: MCP_HEADERS, ca: fs.readFileSync(cert) }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end(initializeBody());
      });
      assert.equal(answer.status, 200);
      assert.match(answer.body, /"serverInfo":\{"name":"stealth-playwright-mcp"/);
    } finally {
      await server.stop();
    }
  });

  test('unusable TLS files stop the server at startup', async () => {
    const keyA = path.join(dir, 'a.key');
    const certA = path.join(dir, 'a.crt');
    const keyB = path.join(dir, 'b.key');
    for (const [k, c] of [[keyA, certA], [keyB, path.join(dir, 'b.crt')]] as const)
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', k, '-out', c, '-days', '1', '-subj', '/CN=x'], { stdio: 'ignore' });
    const mismatched = await runCli(['--transport', 'streamable-http', '--http-protocol', 'https', '--https-cert', certA, '--https-key', keyB], testEnv(dir));
    assert.equal(mismatched.code, 2);
    assert.match(mismatched.stderr, /TLS certificate\/key cannot be used/);
    const missing = await runCli(['--transport', 'streamable-http', '--http-protocol', 'https', '--https-cert', path.join(dir, 'none.crt'), '--https-key', keyA], testEnv(dir));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--https-cert .*none\.crt cannot be read \(ENOENT\)/);
    const noFiles = await runCli(['--transport', 'streamable-http', '--http-protocol', 'https'], testEnv(dir));
    assert.equal(noFiles.code, 2);
    assert.match(noFiles.stderr, /needs --https-cert and --https-key/);
  });

  test('a non-loopback bind without HTTPS and a token is refused, with both safe options explained', async () => {
    const refused = await runCli(['--transport', 'streamable-http', '--http-host', '0.0.0.0', '--http-port', '0'], testEnv(dir));
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Refusing to listen on 0\.0\.0\.0/);
    assert.match(refused.stderr, /--http-protocol https/);
    assert.match(refused.stderr, /--trust-proxy/);
    const tokenOnly = await runCli(['--transport', 'streamable-http', '--http-host', '0.0.0.0', '--http-port', '0', '--http-auth-token', TOKEN], testEnv(dir));
    assert.equal(tokenOnly.code, 2);
    assert.doesNotMatch(tokenOnly.stderr, new RegExp(TOKEN));
  });

  test('behind an acknowledged TLS-terminating proxy a non-loopback bind starts', async () => {
    const server = await startHttpServer(testEnv(dir), ['--http-host', '0.0.0.0', '--trust-proxy', '--http-auth-token', TOKEN]);
    try {
      const port = new URL(server.url).port;
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 200);
    } finally {
      await server.stop();
    }
  });

  test('an unknown session backend is a startup error', async () => {
    const result = await runCli(['--transport', 'streamable-http', '--http-session-backend', 'redis'], testEnv(dir));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--http-session-backend.*"redis".*one of memory/);
  });
});
