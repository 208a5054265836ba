import fs from 'node:fs';
import os from 'node:os';

// /proc readers: process trees, memory (PSS/USS/RSS from smaps_rollup) and
// load. Linux only, like the rest of the bench.

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot: with the pid it names one process for sure (pids get reused). */
  start: number;
  comm: string;
}

/** /proc/<pid>/stat: the command name and the fields after it (state first), or undefined once gone. */
function statOf(pid: number): { comm: string; fields: string[] } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
  } catch {
    return undefined;
  }
}

function readStat(pid: number): ProcInfo | undefined {
  const stat = statOf(pid);
  if (!stat || stat.fields[0] === 'Z') return undefined; // a zombie holds no memory and cannot be killed further
  return { pid, ppid: Number(stat.fields[1]), start: Number(stat.fields[19]), comm: stat.comm };
}

/** Every live descendant of `pid` (children, grandchildren, ...). */
export function descendants(pid: number): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readStat(Number(entry));
    if (!info) continue;
    const list = children.get(info.ppid) ?? [];
    list.push(info);
    children.set(info.ppid, list);
  }
  const out: ProcInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

export function processInfo(pid: number): ProcInfo | undefined {
  return readStat(pid);
}

/** True while the exact process (pid and start time) still runs. */
export function stillRunning(info: ProcInfo): boolean {
  return readStat(info.pid)?.start === info.start;
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

export interface Memory {
  /** Proportional set size: shared pages split among their users. The figure issue 9 asks for. */
  pssKb: number;
  /** Unique set size (private pages): unaffected by what other programs share, so steadier on a busy machine. */
  ussKb: number;
  rssKb: number;
}

const ZERO: Memory = { pssKb: 0, ussKb: 0, rssKb: 0 };

export function memoryOf(pid: number): Memory {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  } catch {
    return ZERO; // exited meanwhile
  }
  const field = (name: string) => Number(text.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return {
    pssKb: field('Pss'),
    ussKb: field('Private_Clean') + field('Private_Dirty'),
    rssKb: field('Rss'),
  };
}

export function addMemory(a: Memory, b: Memory): Memory {
  return { pssKb: a.pssKb + b.pssKb, ussKb: a.ussKb + b.ussKb, rssKb: a.rssKb + b.rssKb };
}

/** Memory of `pid` plus every descendant, with the number of processes counted. */
export function treeMemory(pid: number): Memory & { processes: number } {
  const pids = [pid, ...descendants(pid).map((d) => d.pid)];
  return { ...pids.map(memoryOf).reduce(addMemory, ZERO), processes: pids.length };
}

/** SIGKILL every listed process still running (checked by start time, so a reused pid is never hit). */
export function killAll(infos: readonly ProcInfo[]): number {
  let killed = 0;
  for (const info of infos) {
    if (!stillRunning(info)) continue;
    try {
      process.kill(info.pid, 'SIGKILL');
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (user + system) a process has used so far, in ms; 0 once it is gone. */
export function cpuMs(pid: number): number {
  const fields = statOf(pid)?.fields;
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND : 0;
}

/** What a process is: the MCP server (a root), or Chromium's browser, renderer, GPU... process. */
function kindOf(pid: number, isRoot: boolean): string {
  if (isRoot) return 'server';
  const command = commandLine(pid);
  return /--type=renderer/.test(command) ? 'renderer' : /--type=/.test(command) ? 'chromium helpers' : 'chromium browser';
}

/** CPU ms used so far by each kind of process in the trees under `roots`. */
export function cpuByKind(roots: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const root of roots)
    for (const pid of [root, ...descendants(root).map((d) => d.pid)]) {
      const kind = kindOf(pid, pid === root);
      out[kind] = (out[kind] ?? 0) + cpuMs(pid);
    }
  return out;
}

export function loadAverage(): [number, number, number] {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return [one, five, fifteen];
}

/** Share of all cores' time spent idle between two reads of /proc/stat. */
function idleShare(): () => number {
  const read = () => fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const before = read();
  return () => {
    const after = read();
    const spent = after.map((v, i) => v - (before[i] ?? 0));
    const total = spent.reduce((a, b) => a + b, 0);
    // idle and iowait
    return total > 0 ? ((spent[3] ?? 0) + (spent[4] ?? 0)) / total : 1;
  };
}

/**
 * Waits until the cores were at least `idle` idle over a whole second (what
 * the step before left running, browsers shutting down or a refill, is done),
 * for at most `maxMs`; returns the ms waited. Both sides of a comparison wait
 * the same way, so neither starts on the other's leftovers.
 */
export async function untilQuiet(idle = 0.8, maxMs = 30_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < maxMs) {
    const share = idleShare();
    await new Promise((r) => setTimeout(r, 1000));
    if (share() >= idle) break;
  }
  return Math.round(performance.now() - started);
}
