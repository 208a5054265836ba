import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { httpClient, startHttpServer, type HttpServer } from './helpers/http-server.ts';
import { commandLine, descendants, isAlive, waitFor } from './helpers/processes.ts';
import { testEnv, textOf } from './helpers/server.ts';
import { startSite, type Site } from './helpers/site.ts';

// Issue 9 reliability: the server is SIGKILLed with live sessions. Playwright
// starts Chromium in its own process group, so the browsers outlive it; the
// next start (same runtime dir) must kill exactly those (they carry the dead
// instance's id as a switch) and nothing else, and no lock of the dead server
// (named profile, Chromium's SingletonLock) may block the next start.

const MARKER = '--stealth-playwright-mcp-instance';

function procStartTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A long-running process with `arg` on its command line (`; :` keeps sh from exec-ing sleep in place). */
function decoy(arg: string): ChildProcess {
  return spawn('sh', ['-c', 'sleep 300; :', arg], { stdio: 'ignore', detached: true });
}

describe('SIGKILL of the server with live sessions', { timeout: 120_000 }, () => {
  let site: Site;
  let outputDir: string;
  let runtimeDir: string;
  let tmpDir: string;
  let env: Record<string, string>;
  const decoys: ChildProcess[] = [];
  const servers: HttpServer[] = [];
  let orphans: number[] = [];

  before(async () => {
    site = await startSite();
    outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-sigkill-'));
    // A private runtime dir: this test's servers see only each other's records.
    runtimeDir = path.join(outputDir, 'run');
    // A private temp dir too: the throwaway profiles the dead server leaves are counted there.
    tmpDir = path.join(outputDir, 'tmp');
    fs.mkdirSync(tmpDir);
    env = testEnv(outputDir, { STEALTH_PLAYWRIGHT_MCP_RUNTIME_DIR: runtimeDir, TMPDIR: tmpDir });
  });

  after(async () => {
    for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    for (const d of decoys) if (d.pid && isAlive(d.pid)) process.kill(-d.pid, 'SIGKILL');
    // Whatever the reaper missed must not outlive the test.
    for (const pid of orphans) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await site?.close();
    fs.rmSync(outputDir, { recursive: true, force: true });
  });

  const throwawayProfiles = () => fs.readdirSync(tmpDir).filter((name) => name.startsWith('playwright_chromiumdev_profile-'));
  const artifactsDirs = () => fs.readdirSync(tmpDir).filter((name) => name.startsWith('playwright-artifacts-'));

  test('the next start kills the browsers its predecessor owned, and only those, and removes their throwaway profiles; the profile opens again', async (t) => {
    const first = await startHttpServer(env);
    servers.push(first);
    const records = fs.readdirSync(runtimeDir).filter((f) => f.endsWith('.json'));
    assert.equal(records.length, 1, 'the running server recorded itself');
    const firstRecord = JSON.parse(fs.readFileSync(path.join(runtimeDir, records[0]!), 'utf8')) as { instanceId: string; pid: number };
    assert.equal(firstRecord.pid, first.child.pid);

    const plain = await httpClient(first.url);
    const withProfile = await httpClient(first.url, { headers: { 'X-Stealth-Session-Profile': 'kept' } });
    for (const c of [plain, withProfile]) {
      const nav = await c.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/` } });
      assert.ok(!nav.isError, textOf(nav));
    }
    const browsers = first.browsers();
    const marked = browsers.filter((pid) => commandLine(pid).includes(`${MARKER}=${firstRecord.instanceId}`));
    assert.equal(marked.length, 2, `each browser's main process carries the instance switch:\n${browsers.map(commandLine).join('\n')}`);

    // Decoys that must survive: the same switch with a live instance's id (its
    // record names this test process), and a near miss of the dead id.
    const liveId = randomUUID();
    fs.writeFileSync(path.join(runtimeDir, `${liveId}.json`), JSON.stringify({ instanceId: liveId, pid: process.pid, startTicks: procStartTicks(process.pid), hostname: os.hostname(), startedAt: new Date().toISOString() }));
    decoys.push(decoy(`${MARKER}=${liveId}`), decoy(`${MARKER}=${firstRecord.instanceId}0`), decoy('unrelated'));
    assert.ok(await waitFor(() => decoys.every((d) => d.pid !== undefined && isAlive(d.pid)), 5_000));

    orphans = [...new Set([...browsers, ...marked.flatMap((pid) => descendants(pid))])];
    // A Chromium that sees its pipe close exits by itself; a hung one does not.
    // Stopping one main process stands in for that case, which is what the reaper is for.
    // The profile's browser: its Chromium lock then names a live process until the reaper ends it.
    const hung = marked.find((pid) => commandLine(pid).includes(path.join('profiles', 'kept')));
    assert.ok(hung, 'the profile session has its own browser');
    process.kill(hung, 'SIGSTOP');
    // The plain session's browser (and the warm pool's, once refilled) run on throwaway profiles in TMPDIR.
    const leftProfiles = throwawayProfiles();
    assert.ok(leftProfiles.length >= 1, `throwaway profiles in use: ${leftProfiles.join(', ')}`);
    // Playwright's artifacts dir of every browser (downloads, traces), the profile session's too.
    const leftArtifacts = artifactsDirs();
    assert.ok(leftArtifacts.length >= 2, `artifacts dirs in use: ${leftArtifacts.join(', ')}`);
    first.child.kill('SIGKILL');
    await first.exit;
    const hungTree = new Set([hung, ...descendants(hung)]);
    await waitFor(() => orphans.every((pid) => hungTree.has(pid) || !isAlive(pid)), 5_000);
    const survivors = orphans.filter(isAlive);
    t.diagnostic(`${survivors.length} of ${orphans.length} Chromium processes outlived the SIGKILLed server (the stopped main and its helpers)`);
    assert.ok(isAlive(hung), 'the stopped browser outlived its server');

    const second = await startHttpServer(env);
    servers.push(second);
    assert.ok(await waitFor(() => orphans.every((pid) => !isAlive(pid)), 5_000), `left: ${orphans.filter(isAlive).map(commandLine).join('\n')}`);
    assert.match(second.stderr(), /killed \d+ browser process\(es\) left behind by a server that ended abruptly/);
    assert.ok(decoys.every((d) => isAlive(d.pid!)), 'no process of another instance or program was touched');
    // Nobody was left to remove them; the next start does, and says so.
    assert.deepEqual(throwawayProfiles().filter((name) => leftProfiles.includes(name)), [], 'the dead server\'s throwaway profiles are gone');
    assert.deepEqual(artifactsDirs().filter((name) => leftArtifacts.includes(name)), [], 'the dead server\'s artifacts dirs are gone');
    assert.match(second.stderr(), /removed \d+ throwaway browser profile\(s\) and artifacts dir\(s\) left in the temp dir by that server/);
    assert.ok(!fs.readdirSync(tmpDir).some((name) => name.startsWith('org.chromium.Chromium.') && !fs.existsSync(path.join(tmpDir, name, 'SingletonSocket'))), 'no empty socket dir of theirs is left');
    assert.ok(!fs.existsSync(path.join(runtimeDir, `${firstRecord.instanceId}.json`)), 'the dead instance record is gone');
    assert.ok(fs.existsSync(path.join(runtimeDir, `${liveId}.json`)), 'the live instance record is kept');

    // The profile the dead server held opens again: its lock and Chromium's are stale now.
    const again = await httpClient(second.url, { headers: { 'X-Stealth-Session-Profile': 'kept' } });
    const nav = await again.client.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/second` } });
    assert.ok(!nav.isError, textOf(nav));
    assert.match(textOf(nav), /Second page/);
    await again.transport.terminateSession();
    await again.client.close();

    // A clean stop removes the record of the second server too.
    await second.stop();
    assert.deepEqual(fs.readdirSync(runtimeDir).filter((f) => f.endsWith('.json')), [`${liveId}.json`]);
  });
});
