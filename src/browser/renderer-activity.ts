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

export interface RendererWatch {
  /** Stops sampling: true when no renderer ran throughout and the browser's other processes did; false otherwise, and where it cannot be told (no /proc, no processes, no samples). */
  stop(): Promise<boolean>;
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

/** Samples the state of every process this server started until stopped. */
export function watchRenderers(): RendererWatch {
  if (process.platform !== 'linux') return { stop: async () => false };
  const runnable = new Map<number, number>();
  let processes: Processes = { renderers: [], others: [] };
  let samples = 0;
  let stopped = false;
  const sampling = (async () => {
    processes = await descendants();
    const pids = [...processes.renderers, ...processes.others];
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
      return samples > 0 && !ran(processes.renderers) && ran(processes.others);
    },
  };
}
