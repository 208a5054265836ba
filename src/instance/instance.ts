import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { Logger } from '../log.ts';
import { markerArg, readRecords, recordFile, sameHost, writeRecord } from './instance-record.ts';
import { readStat } from './proc-scan.ts';
import { reapOrphans } from './reap-orphans.ts';
import { removeThrowawayDirs } from '../browser/spawn-ahead/throwaway-profile.ts';
import { trackThrowawayDirs } from './temp-profiles.ts';
import { ensurePrivateDir } from '../fs/private-dir.ts';

// Playwright starts Chromium in its own process group, so a server that is
// SIGKILLed (OOM killer, kill -9, a crashed container runtime) leaves its
// browsers running. Each server instance therefore gets an id, every browser
// it launches carries that id as a harmless extra switch (Chromium ignores
// unknown ones), and a record under the runtime dir names the instance. The
// next start kills the browsers of instances whose server is gone, and only
// those: a process must carry the exact switch of a dead instance.

let current: { id: string; arg: string } | undefined;

/** The switch every browser of this process carries; none before `startInstance` (e.g. in-process benches). */
export function instanceLaunchArgs(): string[] {
  return current ? [current.arg] : [];
}

/**
 * Reaps the browsers of dead predecessors, then records this instance (the
 * record is removed on a normal exit). A failure here is logged, never fatal:
 * serving matters more than cleaning up after someone else. Returns whether
 * the runtime dir is private and usable.
 */
export async function startInstance(runtimeDir: string, log: Logger): Promise<boolean> {
  const id = randomUUID();
  current = { id, arg: markerArg(id) };
  try {
    ensurePrivateDir(runtimeDir);
    for (const { file, record } of readRecords(runtimeDir)) {
      if (!sameHost(record)) continue;
      const reaped = await reapOrphans(record);
      if (reaped === 'alive') continue;
      if (reaped > 0) log.warn(`killed ${reaped} browser process(es) left behind by a server that ended abruptly (pid ${record.pid}, instance ${record.instanceId}, started ${record.startedAt})`);
      const dirs = removeThrowawayDirs(record.tempProfiles ?? []);
      if (dirs > 0) log.info(`removed ${dirs} throwaway browser profile(s) and artifacts dir(s) left in the temp dir by that server (pid ${record.pid})`);
      fs.rmSync(file, { force: true });
    }
    const self = readStat(process.pid);
    const record = { instanceId: id, pid: process.pid, startTicks: self?.startTicks ?? 0, hostname: os.hostname(), startedAt: new Date().toISOString() };
    writeRecord(runtimeDir, record);
    let exited = false;
    process.once('exit', () => {
      exited = true;
      fs.rmSync(recordFile(runtimeDir, id), { force: true });
    });
    // Kept current while browsers start and close, so a SIGKILL leaves a list to clean up.
    trackThrowawayDirs((tempProfiles) => {
      if (exited) return;
      try {
        writeRecord(runtimeDir, { ...record, tempProfiles });
      } catch (error) {
        log.debug(`cannot update the instance record: ${(error as Error).message}`);
      }
    });
    return true;
  } catch (error) {
    log.warn(`cannot use the runtime dir ${runtimeDir} (${(error as Error).message}); browsers of this server will not be reaped if it is killed abruptly. Fix: set --runtime-dir to a private writable directory.`);
    return false;
  }
}
