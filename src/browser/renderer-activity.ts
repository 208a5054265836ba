import { readdir, readFile } from 'node:fs/promises';

// A page that answers nothing may be stuck (a script that never yields: its
// renderer's main thread always runnable; a synchronous request that never
// answers: that thread asleep, and nothing else busy) or waiting on the
// browser (after a full-page screenshot of a page 150,000 px tall, the
// browser process works on it for seconds after the call timed out while
// every renderer sleeps). Only the stuck one should be closed. On Linux /proc
// tells them apart: each process's own thread (a renderer's main thread) is
// R (runnable) or asleep, whatever the machine's load.

const SAMPLE_EVERY_MS = 100;
/** Runnable in at least this share of samples: the process runs. */
const RUNNING_SHARE = 0.8;
// A runnable thread is not a running one: on a machine with more work than
// cores (32 sessions' browsers starting on 2 cores) a renderer that is only
// loading its page waits for a CPU as long as one that never yields spins, and
// answers nothing either. The kernel tells them apart by where the time went:
// a renderer's main thread that spent most of the watch waiting for a CPU,
// while no renderer got much of one, is starved, not stuck.
/** Waiting for a CPU this share of the watch: starved. */
const STARVED_SHARE = 0.5;
/** Half a core or more over the watch: this renderer ran (all its threads). */
const RAN_SHARE = 0.5;
// /proc/<pid>/stat counts CPU time in clock ticks: USER_HZ, 100 on Linux.
const MS_PER_TICK = 10;

/** Why a page that answered nothing may not be stuck, as its processes tell: the browser busy for it, or the machine too busy to run it. */
export type Silence = 'browser-busy' | 'starved' | undefined;

export interface RendererWatch {
  /** Stops sampling: `browser-busy` when no renderer ran throughout and the browser's other processes did; `starved` when a renderer's main thread waited for a CPU most of the time and no renderer got much of one; undefined otherwise, and where it cannot be told (no /proc, no processes, no samples). */
  stop(): Promise<Silence>;
}

/** The fields of /proc/<pid>/stat after the command name (state, parent pid, ...), or undefined when it cannot be read (gone, not visible). */
async function statFields(pid: number | string): Promise<string[] | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The command name (in parentheses) may hold spaces and parentheses: the fields follow its last ')'.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

interface Processes {
  renderers: number[];
  others: number[];
}

/** This server's descendant processes (Chromium's, here), renderers apart. DevTools' process list waits on a busy GPU process: it came back empty then. */
async function descendants(): Promise<Processes> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const parents = new Map<number, number>();
  await Promise.all(
    entries.filter((name) => /^\d+$/.test(name)).map(async (name) => {
      const fields = await statFields(name);
      if (fields) parents.set(Number(name), Number(fields[1]));
    }),
  );
  const ours = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p && hops < 8; p = parents.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  const found: Processes = { renderers: [], others: [] };
  await Promise.all(
    [...parents.keys()].filter(ours).map(async (pid) => {
      const renderer = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes('--type=renderer');
      (renderer ? found.renderers : found.others).push(pid);
    }),
  );
  return found;
}

/** A renderer's CPU so far: all its threads' (ms), and its main thread's wait for a CPU (ms; /proc/<pid>/schedstat, absent without scheduler statistics). */
interface CpuSoFar {
  ranMs: number;
  waitedMs: number | undefined;
}

async function cpuOf(pid: number): Promise<CpuSoFar | undefined> {
  const [fields, schedstat] = await Promise.all([statFields(pid), readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => undefined)]);
  // utime and stime, fields 14 and 15 of the line: 11 and 12 after the command name.
  if (!fields) return undefined;
  const waitedNs = Number(schedstat?.split(' ')[1]);
  return { ranMs: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK, waitedMs: Number.isFinite(waitedNs) ? waitedNs / 1e6 : undefined };
}

/** Whether some renderer's main thread waited for a CPU most of the time between the two readings while none ran much. */
function starvedBetween(before: Map<number, CpuSoFar | undefined>, after: Map<number, CpuSoFar | undefined>, elapsedMs: number): boolean {
  let starved = false;
  for (const [pid, start] of before) {
    const end = after.get(pid);
    if (!start || !end) continue;
    if (end.ranMs - start.ranMs >= elapsedMs * RAN_SHARE) return false;
    if (start.waitedMs !== undefined && end.waitedMs !== undefined && end.waitedMs - start.waitedMs >= elapsedMs * STARVED_SHARE) starved = true;
  }
  return starved;
}

const readCpu = async (pids: number[]) => new Map(await Promise.all(pids.map(async (pid) => [pid, await cpuOf(pid)] as const)));

/** Samples the state of every process this server started until stopped. */
export function watchRenderers(): RendererWatch {
  if (process.platform !== 'linux') return { stop: async () => undefined };
  const runnable = new Map<number, number>();
  let processes: Processes = { renderers: [], others: [] };
  let samples = 0;
  let stopped = false;
  let first: { at: number; cpu: Map<number, CpuSoFar | undefined> } | undefined;
  const sampling = (async () => {
    processes = await descendants();
    const pids = [...processes.renderers, ...processes.others];
    first = { at: performance.now(), cpu: await readCpu(processes.renderers) };
    while (!stopped && processes.renderers.length) {
      const states = await Promise.all(pids.map(async (pid) => (await statFields(pid))?.[0]));
      if (states.every((state) => state === undefined)) return;
      samples++;
      states.forEach((state, i) => state === 'R' && runnable.set(pids[i]!, (runnable.get(pids[i]!) ?? 0) + 1));
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  const ran = (pids: number[]) => pids.some((pid) => (runnable.get(pid) ?? 0) >= samples * RUNNING_SHARE);
  return {
    async stop() {
      stopped = true;
      await sampling;
      if (samples === 0 || !first) return undefined;
      if (!ran(processes.renderers)) return ran(processes.others) ? 'browser-busy' : undefined;
      return starvedBetween(first.cpu, await readCpu(processes.renderers), performance.now() - first.at) ? 'starved' : undefined;
    },
  };
}
