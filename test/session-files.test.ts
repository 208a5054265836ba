import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { useSite, useTempDir } from './helpers/fixtures.ts';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { connect, testEnv, textOf, localInfo } from './helpers/server.ts';

type Link = { type: string; uri: string; name: string; mimeType: string; size: number };
const info = async (client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }) =>
  (await localInfo(client));

// Over HTTP the client is elsewhere: what a session's tools write comes back
// as MCP resources of that session, and nothing else can be named.
describe('session files as MCP resources (HTTP)', () => {
  const site = useSite();
  const output = useTempDir('spm-files-');
  let server: HttpServer;
  before(async () => {
    server = await startHttpServer(testEnv(output.path), ['--resource-max-bytes', String(200 * 1024)]);
  });
  after(async () => {
    await server?.stop();
  });

  test('a screenshot is linked, listed, announced and readable; scope and size are enforced; the dir goes with the session', async () => {
    const a = await httpClient(server.url);
    let announced = 0;
    a.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void announced++);
    assert.ok(a.client.getServerCapabilities()?.resources, 'the resources capability is declared');
    await a.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
    const shot = await a.client.callTool({ name: 'browser_take_screenshot', arguments: { filename: 'home.png' } });
    const link = (shot.content as Link[]).find((c) => c.type === 'resource_link' && c.name === 'home.png');
    assert.ok(link, `a resource_link beside the upstream text: ${JSON.stringify(shot.content)}`);
    assert.match(textOf(shot), /home\.png/, 'the upstream text is unchanged');
    assert.ok(!fs.existsSync(path.join(process.cwd(), 'home.png')), "never in the server's working directory");
    assert.equal(link.mimeType, 'image/png');
    const listed = (await a.client.listResources()).resources;
    assert.ok(listed.some((r) => r.uri === link.uri && r.size === link.size));
    assert.ok(announced > 0, 'notifications/resources/list_changed');
    const read = await a.client.readResource({ uri: link.uri });
    const png = Buffer.from((read.contents[0] as { blob: string }).blob, 'base64');
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.equal(png.length, link.size);
    const snapshotFile = listed.find((r) => r.name.endsWith('.yml'));
    assert.ok(snapshotFile, 'the navigate snapshot file is a resource too');
    const yml = (await a.client.readResource({ uri: snapshotFile.uri })).contents[0] as unknown as { text: string };
    assert.match(yml.text, /button "Click me"/);

    const dir = (await info(a.client)).session.outputDir as string;
    fs.symlinkSync('/etc/passwd', path.join(dir, 'escape.txt'));
    fs.writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(300 * 1024));
    const b = await httpClient(server.url);
    const refused: [typeof a, string, RegExp][] = [
      [a, 'stealth-playwright-mcp://session/../../etc/passwd', /leaves the session directory/],
      [a, 'stealth-playwright-mcp://session/%2Fetc%2Fpasswd', /leaves the session directory/],
      [a, 'stealth-playwright-mcp://session/escape.txt', /a link/],
      [a, 'file:///etc/passwd', /not a file of this session/],
      [a, 'stealth-playwright-mcp://session/big.bin', /--resource-max-bytes/],
      [b, link.uri, /does not exist/],
    ];
    for (const [client, uri, message] of refused) await assert.rejects(client.client.readResource({ uri }), message, uri);
    assert.ok(!(await b.client.listResources()).resources.some((r) => r.name === 'home.png'), "another session does not see A's files");

    await a.transport.terminateSession();
    await a.client.close();
    assert.ok(!fs.existsSync(dir), 'removed with the session');
    await b.transport.terminateSession();
    await b.client.close();
  });
});

describe('session files: byte cap and --keep-artifacts', () => {
  const output = useTempDir('spm-files-cap-');
  let server: HttpServer;
  before(async () => {
    server = await startHttpServer(testEnv(output.path), ['--session-output-max-bytes', String(1024 * 1024), '--keep-artifacts']);
  });
  after(async () => {
    await server?.stop();
  });

  test('past the cap the browser tools are refused with the setting named; the usage is reported; files are kept', async () => {
    const { client, transport } = await httpClient(server.url);
    const dir = (await info(client)).session.outputDir as string;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'download.bin'), Buffer.alloc(2 * 1024 * 1024));
    await client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
    const refused = await client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,x' } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /--session-output-max-bytes/);
    const files = (await info(client)).session.files;
    assert.ok(files.bytes >= 2 * 1024 * 1024 && files.maxBytes === 1024 * 1024 && files.removedAtEnd === false, JSON.stringify(files));
    await transport.terminateSession();
    await client.close();
    assert.ok(fs.existsSync(path.join(dir, 'download.bin')), '--keep-artifacts keeps them');
  });
});

// Over stdio the output directory is shared with earlier runs (the upstream's
// .playwright-mcp, or one --output-dir for every run): what they left is not
// this session's.
test('stdio: resources/list shows what this session wrote, not what earlier runs left in the directory', async (t) => {
  const dir = fs.mkdtempSync('/tmp/spm-files-stdio-');
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const old = path.join(dir, 'console-from-yesterday.log');
  fs.writeFileSync(old, 'old run');
  fs.utimesSync(old, new Date(Date.now() - 86_400_000), new Date(Date.now() - 86_400_000));
  const { client } = await connect(testEnv(dir), ['--output-dir', dir]);
  try {
    await client.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<title>x</title>' } });
    await client.callTool({ name: 'browser_take_screenshot', arguments: { filename: path.join(dir, 'now.png') } });
    const names = (await client.listResources()).resources.map((r) => r.name);
    assert.ok(names.includes('now.png'), names.join(','));
    assert.ok(!names.includes('console-from-yesterday.log'), names.join(','));
  } finally {
    await client.close();
  }
});
