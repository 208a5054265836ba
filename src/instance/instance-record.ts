import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomicSync } from '../fs/write-atomic.ts';

// One small file per running server instance: which process it is (pid and
// start time, so a reused pid is not mistaken for it) and the id its browsers
// carry on their command line.

export interface InstanceRecord {
  instanceId: string;
  pid: number;
  startTicks: number;
  hostname: string;
  startedAt: string;
  /** Throwaway profiles of its browsers still running, and Playwright's artifacts dirs not yet removed (temp-profiles.ts). */
  tempProfiles?: string[];
}

const MARKER_SWITCH = '--stealth-playwright-mcp-instance';

/** The switch a browser of instance `instanceId` carries (Chromium ignores switches it does not know). */
export function markerArg(instanceId: string): string {
  return `${MARKER_SWITCH}=${instanceId}`;
}

const ID_PATTERN = /^[0-9a-f-]{36}$/;

export function recordFile(dir: string, instanceId: string): string {
  return path.join(dir, `${instanceId}.json`);
}

export function writeRecord(dir: string, record: InstanceRecord): void {
  writeFileAtomicSync(recordFile(dir, record.instanceId), JSON.stringify(record), 0o600);
}

/** Every well-formed record in `dir` owned by this user; anything else is left alone. */
export function readRecords(dir: string): { file: string; record: InstanceRecord }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const out: { file: string; record: InstanceRecord }[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    try {
      if (uid !== undefined && fs.lstatSync(file).uid !== uid) continue;
      const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<InstanceRecord>;
      if (typeof record.instanceId !== 'string' || !ID_PATTERN.test(record.instanceId) || name !== `${record.instanceId}.json`) continue;
      if (!Number.isInteger(record.pid) || !Number.isInteger(record.startTicks) || typeof record.hostname !== 'string') continue;
      if (record.tempProfiles !== undefined && !(Array.isArray(record.tempProfiles) && record.tempProfiles.every((d) => typeof d === 'string'))) delete record.tempProfiles;
      out.push({ file, record: record as InstanceRecord });
    } catch {
      // vanished or unreadable: not ours to judge
    }
  }
  return out;
}

export function sameHost(record: InstanceRecord): boolean {
  return record.hostname === os.hostname();
}
