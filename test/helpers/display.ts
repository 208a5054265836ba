import { spawn, type ChildProcess } from 'node:child_process';

// A virtual X display (Debian's Xvfb) for headed browsers and for real X input (xdotool).

export interface Display {
  /** The DISPLAY value, e.g. ":5". */
  name: string;
  stop(): void;
}

export async function startDisplay(screen = '1280x720x24'): Promise<Display> {
  const xvfb: ChildProcess = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', screen, '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const name = await new Promise<string>((resolve, reject) => {
    xvfb.stdout!.once('data', (c: Buffer) => resolve(`:${c.toString().trim()}`));
    xvfb.once('error', reject);
  });
  return { name, stop: () => void xvfb.kill() };
}
