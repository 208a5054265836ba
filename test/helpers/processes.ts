import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** All live descendants of `pid` (children, grandchildren, ...). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) for (const child of children.get(queue.shift()!) ?? []) out.push(child), queue.push(child);
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** A browser the server runs for a moment to make a profile template (its profile is in that dir: profile-template.ts), and its helpers. */
export function makesTemplate(pid: number): boolean {
  return commandLine(pid).includes('/stealth-playwright-mcp-profiles-');
}

/** The Chromium processes under `pid` (a server and the browsers it launched for sessions; not a template's). */
export function browserProcessesOf(pid: number): number[] {
  const chromium = descendants(pid).filter((child) => /chrom/i.test(commandLine(child)));
  // Its helpers (zygotes, renderers) do not name the profile: left out as its descendants.
  const template = new Set(chromium.filter(makesTemplate).flatMap((root) => [root, ...descendants(root)]));
  return chromium.filter((child) => !template.has(child));
}

/** Chromium processes whose command line mentions `marker` (e.g. a session's output dir). */
export function chromiumProcessesWith(marker: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => /chrom/i.test(line) && line.includes(marker))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

export async function waitFor(predicate: () => boolean, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return predicate();
}

/** A port on 127.0.0.1 that nothing listens on right now (a server may take it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
