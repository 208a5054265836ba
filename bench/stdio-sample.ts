import { cpuByKind, treeMemory, memoryOf, type Memory } from './proc.ts';
import { startStdio, type Variant } from './servers.ts';
import { percentile, since } from './stats.ts';

// One full stdio session of one variant, as a client would drive it: spawn,
// initialize, first navigate (browser launch included), a pause, memory, then
// a burst of snapshots. Measures 1, 2, 4 and 5 are read from these samples.

export interface StdioSample {
  variant: string;
  initMs: number;
  /** initialize done → first browser_navigate result. */
  firstNavigateMs: number;
  /** spawn → first browser_navigate result. */
  spawnToNavigateMs: number;
  /** CPU ms each kind of process (server, Chromium's browser, renderers, helpers) used from the spawn to that result. */
  startCpuMs: Record<string, number>;
  memory: {
    server: Memory;
    /** Everything below the server: Chromium and its helpers. */
    browser: Memory & { processes: number };
    total: Memory;
  };
  snapshots: { calls: number; seconds: number; callsPerSecond: number; p50Ms: number; p95Ms: number };
}

export interface SampleOptions {
  url: string;
  snapshotCalls: number;
  /** Pause after the first navigate before reading memory, so Chromium's helper processes have started. */
  settleMs: number;
}

export async function stdioSample(variant: Variant, options: SampleOptions): Promise<StdioSample> {
  const server = await startStdio(variant);
  try {
    const navStart = performance.now();
    await server.call('browser_navigate', { url: options.url });
    const firstNavigateMs = since(navStart);
    const spawnToNavigateMs = server.initMs + firstNavigateMs;
    const startCpuMs = cpuByKind([server.pid]);

    await new Promise((r) => setTimeout(r, options.settleMs));
    const serverMemory = memoryOf(server.pid);
    const whole = treeMemory(server.pid);
    const browser = {
      pssKb: whole.pssKb - serverMemory.pssKb,
      ussKb: whole.ussKb - serverMemory.ussKb,
      rssKb: whole.rssKb - serverMemory.rssKb,
      processes: whole.processes - 1,
    };

    const latencies: number[] = [];
    const burstStart = performance.now();
    for (let i = 0; i < options.snapshotCalls; i++) {
      const start = performance.now();
      await server.call('browser_snapshot');
      latencies.push(since(start));
    }
    const seconds = since(burstStart) / 1000;
    return {
      variant: variant.id,
      initMs: server.initMs,
      firstNavigateMs,
      spawnToNavigateMs,
      startCpuMs,
      memory: { server: serverMemory, browser, total: { pssKb: whole.pssKb, ussKb: whole.ussKb, rssKb: whole.rssKb } },
      snapshots: {
        calls: options.snapshotCalls,
        seconds,
        callsPerSecond: options.snapshotCalls / seconds,
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
      },
    };
  } finally {
    await server.close();
  }
}

/** Spawn and initialize only, then close: warms the file cache before timed runs. */
export async function warmUp(variant: Variant): Promise<void> {
  const server = await startStdio(variant);
  await server.close();
}
