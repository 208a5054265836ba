import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../config/config-error.ts';

const ELF_MACHINES: Record<number, string> = { 0x3e: 'x64', 0xb7: 'arm64', 0x03: 'ia32', 0x28: 'arm' };

/** Fails with the reason and the fix when `file` cannot be run as a browser. */
export async function assertRunnable(file: string, origin: string, fix: string): Promise<void> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat) throw new ConfigError(`${origin} points at ${file}, which does not exist. Fix: ${fix}`);
  if (!stat.isFile()) throw new ConfigError(`${origin} points at ${file}, which is not a file. Fix: ${fix}`);
  try {
    await fs.access(file, constants.X_OK);
  } catch {
    throw new ConfigError(`${origin} points at ${file}, which is not executable. Fix: chmod +x it, or ${fix}`);
  }
  const arch = await elfArch(file);
  if (arch && arch !== process.arch)
    throw new ConfigError(`${origin} points at ${file}, a ${arch} program, but this machine is ${process.arch}. Fix: ${fix}`);
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function elfArch(file: string): Promise<string | undefined> {
  const head = await readHead(file, 20);
  if (head.length < 20 || head.toString('latin1', 0, 4) !== '\x7fELF') return undefined;
  return ELF_MACHINES[head.readUInt16LE(18)] ?? `machine ${head.readUInt16LE(18)}`;
}

export interface VersionProbe {
  /** Four-part Chromium version, e.g. 150.0.7871.100. */
  version: string;
  output: string;
}

/** Runs `<file> --version`; a program that does not answer like Chromium is refused. */
export async function probeVersion(file: string, origin: string, fix: string): Promise<VersionProbe> {
  const output = await new Promise<string>((resolve, reject) => {
    execFile(file, ['--version'], { timeout: 10_000, env: { ...process.env, LANG: 'C' } }, (error, stdout, stderr) => {
      if (error) reject(new ConfigError(`${origin}: running "${file} --version" failed (${error.message.split('\n')[0]}${stderr ? `; ${stderr.trim().split('\n').at(-1)}` : ''}). Fix: ${fix}`));
      else resolve(stdout.trim());
    });
  });
  const version = output.match(/\b(\d+\.\d+\.\d+\.\d+)\b/)?.[1];
  if (!version) throw new ConfigError(`${origin}: ${file} does not look like Chromium ("--version" printed ${JSON.stringify(output.slice(0, 120))}). Fix: ${fix}`);
  return { version, output };
}

export async function findOnPath(names: readonly string[]): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (await fs.access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
    }
  }
  return undefined;
}

// Distribution launchers (Debian's /usr/bin/chromium) are shell scripts that add
// their own flags (--load-extension=, --enable-remote-extensions); the bridge
// launches the real binary behind them instead.
const REAL_BINARIES_BEHIND_LAUNCHERS = ['/usr/lib/chromium/chromium', '/usr/lib/chromium-browser/chromium-browser', '/opt/google/chrome/chrome'];

export async function unwrapLauncher(file: string): Promise<string> {
  const real = await fs.realpath(file);
  const head = await readHead(real, 2).then((b) => b.toString('latin1'), () => '');
  if (head !== '#!') return real;
  for (const candidate of REAL_BINARIES_BEHIND_LAUNCHERS) {
    if (await fs.access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return real;
}
