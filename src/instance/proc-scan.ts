import fs from 'node:fs';

// /proc readers for finding and ending the browsers of a dead server
// instance. Linux only: elsewhere every reader answers "nothing found", so
// reaping does nothing rather than guess.

/** Without /proc (macOS) a record's liveness is judged by its pid alone, and nothing is reaped. */
export const HAVE_PROC = fs.existsSync('/proc/self/stat');

export interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  /** Start time in clock ticks since boot: with the pid it names one process (pids get reused). */
  startTicks: number;
  zombie: boolean;
}

export function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), startTicks: Number(fields[19]), zombie: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

/** The exact process (pid and start time) still runs (a zombie has ended). */
export function stillRunning(pid: number, startTicks: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && !stat.zombie && stat.startTicks === startTicks;
}

function allPids(): number[] {
  try {
    return fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number);
  } catch {
    return [];
  }
}

function argv(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** Live processes with exactly `arg` as one of their arguments (not as a substring of one). */
export function processesWithArg(arg: string): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of allPids()) {
    if (pid === process.pid || !argv(pid).includes(arg)) continue;
    const stat = readStat(pid);
    if (stat && !stat.zombie) out.push(stat);
  }
  return out;
}

/** Every live descendant of the given processes (children, grandchildren, ...). */
export function descendantsOf(roots: readonly ProcStat[]): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const pid of allPids()) {
    const stat = readStat(pid);
    if (!stat || stat.zombie) continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  }
  const out: ProcStat[] = [];
  const queue = roots.map((r) => r.pid);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}
