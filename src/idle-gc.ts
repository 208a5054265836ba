import v8 from 'node:v8';
import vm from 'node:vm';
import { flushBundleCodeCache } from './bundle-code-cache.ts';

// While the process loads playwright-core and runs its first calls, V8 grows
// the young generation to its ceiling (16 MB x 2 on Node 22, up to 64 MB x 2
// on Node 24) and keeps it: only a memory-reducing GC gives it back, and
// nothing asks for one (V8's own memory reducer waits for a full GC and then
// for 8 s of quiet). Measured on a stdio server after its first navigate:
// 130 -> 90 MB PSS, for a 65 ms GC. So once no tool call has been running for
// a second, which an agent's model turn is always longer than, the server runs
// that GC once; it runs again only after more calls. During a burst of calls
// it never runs, so it costs no throughput; a request that arrives during it
// waits for it.
//
// Such a GC also throws away what makes the next call fast (optimised code
// whose maps it freed, V8's compilation cache): the call after it costs ~20 ms
// more CPU. Once the first has given back what loading grew, one after every
// pause gives back only ~2 MB; so it runs again only once the process has
// grown by REGROWTH_BYTES since the last (a burst of calls, new sessions).

const IDLE_MS = 1000;
const REGROWTH_BYTES = 8 * 1024 * 1024;

// The binary (Bun) is left alone: its forced GC gave back ~2 MB there.
declare const Bun: unknown;

type GcOptions = { type: 'major'; execution: 'sync'; flavor: 'last-resort' };
let nodeGc: ((options: GcOptions) => void) | undefined;

let running = 0;
let workSinceGc = false;
let timer: NodeJS.Timeout | undefined;
let runs = 0;
let rssAfterGc = 0;

/** A tool call starts: no GC until every call has ended and the process has been idle a while. */
export function callStarted(): void {
  running++;
  workSinceGc = true;
  clearTimeout(timer);
  timer = undefined;
}

export function callEnded(): void {
  running = Math.max(0, running - 1);
  if (running > 0 || typeof Bun !== 'undefined') return;
  clearTimeout(timer);
  timer = setTimeout(reduceMemory, IDLE_MS);
  timer.unref();
}

/** How many memory-reducing GCs ran (stealth_bridge_info, tests). */
export function idleGcRuns(): number {
  return runs;
}

function reduceMemory(): void {
  timer = undefined;
  if (running > 0 || !workSinceGc) return;
  workSinceGc = false;
  // The code cache is written at this moment too; serialising allocates, so before the GC.
  flushBundleCodeCache();
  if (runs > 0 && process.memoryUsage.rss() < rssAfterGc + REGROWTH_BYTES) return;
  try {
    // The way Jest gets a gc() without --expose-gc on the command line.
    if (!nodeGc) {
      v8.setFlagsFromString('--expose-gc');
      nodeGc = vm.runInNewContext('gc') as typeof nodeGc;
    }
    nodeGc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    runs++;
    rssAfterGc = process.memoryUsage.rss();
  } catch {
    // a runtime without it: memory stays as V8 left it
  }
}
