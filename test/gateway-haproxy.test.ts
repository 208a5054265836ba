import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useTempDir } from './helpers/fixtures.ts';
import { httpClient, MCP_HEADERS, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { ROOT, testEnv } from './helpers/server.ts';
import { freePort } from './helpers/processes.ts';

const TOKEN = 'gateway-test-token-7d1f3c';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const CONFIG = path.join(ROOT, 'deploy', 'haproxy', 'haproxy.cfg');

type Info = { replica: string | null; session: { id: string } };
const bridgeInfo = async (client: Client) => ((await client.callTool({ name: "stealth_bridge_info", arguments: {} })) as unknown as { structuredContent: Info }).structuredContent;

// Three replicas on 127.0.0.1 behind Debian's HAProxy with the shipped config:
// sessions spread, every request reaches the replica its id names, a full or
// draining replica gets no new session, a dead one's clients start over elsewhere.
describe('replicas behind HAProxy (deploy/haproxy/haproxy.cfg)', () => {
  const output = useTempDir('spm-gateway-');
  const replicas = new Map<string, HttpServer>();
  let haproxy: ChildProcess;
  let gateway: string;
  let haproxyLog = '';
  const open: { client: Client; owner: string }[] = [];

  before(async () => {
    const env: Record<string, string> = { MCP_TOKEN: TOKEN, PATH: process.env.PATH ?? '' };
    for (const [name, max] of [['r1', 32], ['r2', 32], ['r3', 3]] as const) {
      const agent = await freePort();
      const server = await startHttpServer(testEnv(path.join(output.path, name)), [
        '--http-replica-id', name, '--http-agent-port', String(agent), '--http-auth-token', TOKEN, '--http-session-max', String(max),
      ]);
      replicas.set(name, server);
      env[`${name.toUpperCase()}_ADDR`] = new URL(server.url).host;
      env[`${name.toUpperCase()}_AGENT`] = String(agent);
    }
    const port = await freePort();
    env.GATEWAY_BIND = `127.0.0.1:${port}`;
    gateway = `http://127.0.0.1:${port}/mcp`;
    haproxy = spawn('haproxy', ['-db', '-f', CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout!.on('data', (c: Buffer) => (haproxyLog += c.toString()));
    haproxy.stderr!.on('data', (c: Buffer) => (haproxyLog += c.toString()));
    // Until the gateway answers and every replica's check and agent have run.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const ok = await fetch(gateway.replace('/mcp', '/readyz'), { headers: AUTH }).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1500));
  });
  after(async () => {
    for (const { client } of open) await client.close().catch(() => {});
    haproxy?.kill('SIGTERM');
    for (const server of replicas.values()) await server.stop();
  });

  test('the config is valid for the HAProxy of this machine', async () => {
    assert.ok(haproxy.exitCode === null, `haproxy exited: ${haproxyLog}`);
  });

  test('30 sessions spread over the replicas, a full one takes no more, every request reaches its owner', async () => {
    for (let i = 0; i < 30; i++) {
      const { client } = await httpClient(gateway, { headers: AUTH });
      const first = await bridgeInfo(client);
      assert.ok(first.replica, 'the session names its replica');
      assert.ok(first.session.id.startsWith(`${first.replica}.`), `id ${first.session.id} names ${first.replica}`);
      open.push({ client, owner: first.replica! });
      // Let the agents report the new load before the next initialize.
      await new Promise((r) => setTimeout(r, 350));
    }
    const count = (name: string) => open.filter((s) => s.owner === name).length;
    assert.equal(count('r3'), 3, 'the replica with 3 slots got exactly 3 sessions');
    assert.ok(count('r1') >= 8 && count('r2') >= 8, `spread: r1 ${count('r1')}, r2 ${count('r2')}`);
    for (const { client, owner } of open) {
      for (let k = 0; k < 2; k++) assert.equal((await bridgeInfo(client)).replica, owner, 'each request reached the owner');
    }
    const full = (await (await fetch(replicas.get('r3')!.url.replace('/mcp', '/readyz'), { headers: AUTH })).json()) as { status: string };
    assert.equal(full.status, 'full');
  });

  test('without the token the gateway passes the refusal through', async () => {
    const response = await fetch(gateway, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
    assert.equal(response.status, 401);
  });

  test('a request whose id names another replica gets 404 saying so', async () => {
    const [a] = open.filter((s) => s.owner === 'r1');
    const id = (await bridgeInfo(a!.client)).session.id;
    const response = await fetch(replicas.get('r2')!.url, { method: 'POST', headers: { ...MCP_HEADERS, ...AUTH, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }) });
    assert.equal(response.status, 404);
    assert.match((await response.json()).error.message, /names replica "r1", this is "r2"/);
  });

  test('SIGTERM drains a replica: its sessions end cleanly, new sessions go to the others', async () => {
    const r2 = replicas.get('r2')!;
    r2.child.kill('SIGTERM');
    assert.deepEqual(await r2.exit, { code: 0, signal: null });
    await new Promise((r) => setTimeout(r, 1500));
    for (let i = 0; i < 4; i++) {
      const { client } = await httpClient(gateway, { headers: AUTH });
      assert.equal((await bridgeInfo(client)).replica, 'r1', 'r2 is gone and r3 is full: r1 takes it');
      open.push({ client, owner: 'r1' });
    }
  });

  test('SIGKILL of a replica: its clients get 404 and land on a live replica when they initialize again', async () => {
    const r1 = replicas.get('r1')!;
    const victim = open.find((s) => s.owner === 'r3')!;
    const r3 = replicas.get('r3')!;
    r3.child.kill('SIGKILL');
    await r3.exit;
    await new Promise((r) => setTimeout(r, 1500));
    await assert.rejects(bridgeInfo(victim.client), /404|not found/i);
    const { client } = await httpClient(gateway, { headers: AUTH });
    assert.equal((await bridgeInfo(client)).replica, 'r1');
    open.push({ client, owner: 'r1' });
    assert.ok(r1.child.exitCode === null);
  });
});
