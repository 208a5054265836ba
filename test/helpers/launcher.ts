import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandLine, descendants } from './processes.ts';
import { ROOT, serverCommand, testEnv } from './server.ts';

export interface Launcher {
  child: ChildProcess;
  /** The private health socket this launcher answers on. */
  healthSocket: string;
  outputDir: string;
  stdout(): string;
  stderr(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line (the HTTP URL in HTTP mode). */
  firstLine: Promise<string>;
  /** Xvfb processes under the launcher. */
  xvfbs(): number[];
  /** Chromium main processes under the launcher. */
  browsers(): number[];
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `launcher <args>` of the server under test, with its own health socket and output dir. */
export function startLauncher(args: string[], extraEnv: Record<string, string> = {}): Launcher {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-launcher-'));
  // Launchers that end by themselves (a test killing Xvfb) are never stop()ped.
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const healthSocket = path.join(dir, 'health.sock');
  const outputDir = path.join(dir, 'out');
  const [command, baseArgs] = serverCommand();
  const env = testEnv(outputDir, { STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET: healthSocket, ...extraEnv });
  const child = spawn(command, [...baseArgs, 'launcher', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!.trim());
    });
    void exit.then(({ code }) => reject(new Error(`launcher exited (${code}) before printing: ${stderr}`)));
  });
  firstLine.catch(() => {});
  const under = (pattern: RegExp) => descendants(child.pid!).filter((pid) => pattern.test(commandLine(pid)));
  return {
    child,
    healthSocket,
    outputDir,
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
    firstLine,
    xvfbs: () => under(/^\S*Xvfb /),
    browsers: () => under(/chrom/i).filter((pid) => !commandLine(pid).includes('--type=')),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const result = await exit;
      fs.rmSync(dir, { recursive: true, force: true });
      return result;
    },
  };
}

/** `health` of the server under test against a socket: exit code and its one line. */
export function runHealth(healthSocket: string): Promise<{ code: number | null; stdout: string; ms: number }> {
  const [command, baseArgs] = serverCommand();
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...baseArgs, 'health'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', STEALTH_PLAYWRIGHT_MCP_HEALTH_SOCKET: healthSocket },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.trim(), ms: Date.now() - started }));
  });
}

/** The stand-in child for misbehaving-server cases (test/fixtures/launcher-child.mjs). */
export function fixtureChild(mode: 'stubborn' | 'mute' | 'headed'): Record<string, string> {
  return { STEALTH_TEST_LAUNCHER_SERVER: JSON.stringify([process.execPath, path.join(ROOT, 'test', 'fixtures', 'launcher-child.mjs'), mode]) };
}

/** DISPLAY from a process's environment. */
export function displayOf(pid: number): string | undefined {
  const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environ.find((e) => e.startsWith('DISPLAY='))?.slice('DISPLAY='.length);
}
