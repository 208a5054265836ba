import { markerArg, type InstanceRecord } from './instance-record.ts';
import { processAlive } from '../browser/profiles/liveness.ts';
import { descendantsOf, HAVE_PROC, processesWithArg, readStat, stillRunning, type ProcStat } from './proc-scan.ts';

const EXIT_WAIT_MS = 3_000;

/**
 * Kills the browsers of a dead server instance: every process carrying its
 * marker switch, their descendants and their process groups (Chromium's
 * helpers). Returns 'alive' when the instance still runs (nothing touched),
 * else how many processes were killed.
 */
export async function reapOrphans(record: InstanceRecord): Promise<number | 'alive'> {
  if (!HAVE_PROC) return processAlive(record.pid) ? 'alive' : 0;
  if (stillRunning(record.pid, record.startTicks)) return 'alive';
  const marked = processesWithArg(markerArg(record.instanceId));
  if (marked.length === 0) return 0;
  const targets = new Map<number, ProcStat>();
  for (const p of [...marked, ...descendantsOf(marked)]) targets.set(p.pid, p);
  let killed = 0;
  for (const p of targets.values()) {
    // Checked again right before the kill: a pid that ended meanwhile may be someone else's now.
    if (!stillRunning(p.pid, p.startTicks)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
      killed++;
    } catch {
      // ended meanwhile, or not ours to kill
    }
  }
  // Helpers that left the tree (reparented) still share the marked main's group.
  for (const p of marked) {
    if (p.pgrp !== p.pid) continue;
    try {
      process.kill(-p.pgrp, 'SIGKILL');
    } catch {
      // the group is already empty
    }
  }
  // Wait until they are really gone: a profile's lock names the browser's pid.
  const deadline = Date.now() + EXIT_WAIT_MS;
  const left = () => [...targets.values()].filter((p) => { const s = readStat(p.pid); return s !== undefined && !s.zombie && s.startTicks === p.startTicks; });
  while (left().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return killed;
}
