import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { httpClient, startHttpServer } from './helpers/http-server.ts';
import { testEnv, textOf } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';

let xvfb: ChildProcess;
let display: string;
let site: Site;

before(async () => {
  site = await startSite();
  xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x720x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  display = await new Promise<string>((resolve, reject) => {
    xvfb.stdout!.once('data', (c: Buffer) => resolve(`:${c.toString().trim()}`));
    xvfb.once('error', reject);
  });
});
after(async () => {
  xvfb?.kill();
  await site?.close();
});

// A client that asks for a headed browser gets one (on a virtual display here),
// while the process default stays headless.
test('a session with headless false runs a headed browser on the display', async () => {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-headed-'));
  const server = await startHttpServer(testEnv(outputDir, { DISPLAY: display }));
  try {
    const headed = await httpClient(server.url, { headers: { 'x-stealth-session-headless': 'false' } });
    const nav = await headed.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    assert.ok(!nav.isError, textOf(nav));
    const commandLines = server.browsers().map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    const main = commandLines.find((c) => !c.includes('--type='));
    assert.ok(main && !main.includes('--headless'), 'the browser runs headed');
    const headless = await httpClient(server.url);
    await headless.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/ua` } });
    const mains = server.browsers().map((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).filter((c) => !c.includes('--type='));
    assert.equal(mains.filter((c) => c.includes('--headless')).length, 1, 'the other session stays headless');
  } finally {
    await server.stop();
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
});
