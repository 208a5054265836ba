import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server.ts';

/**
 * The focused end-to-end suite each distribution form must pass: handshake, tools, navigate,
 * snapshot, local tools, doctor, --help, and Chromium started ahead (it hands Playwright a
 * process spawned through the runtime's own child_process, which Bun implements anew).
 */
export const FOCUSED_SUITE = ['test/stdio-bridge.test.ts', 'test/cli.test.ts', 'test/spawn-ahead.test.ts'];

export interface SuiteRun {
  code: number | null;
  output: string;
  passed: number;
  failed: number;
}

/**
 * Runs test files in a child test runner against another server command
 * (STEALTH_TEST_SERVER), from `cwd`, with `env` (PATH etc.) — the same test
 * code that checks the source build checks each distributed form.
 */
export function runSuite(server: string, cwd: string, env: Record<string, string>, files = FOCUSED_SUITE): Promise<SuiteRun> {
  // The README check does not depend on the server; it runs once, in the main suite.
  const args = ['--experimental-strip-types', '--no-warnings', '--test', '--test-force-exit', '--test-concurrency=1', '--test-reporter=tap', '--test-skip-pattern=README', ...files.map((f) => path.join(ROOT, f))];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...env, STEALTH_TEST_SERVER: server }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const count = (name: string) => Number(output.match(new RegExp(`^# ${name} (\\d+)`, 'm'))?.[1] ?? 0);
      resolve({ code, output, passed: count('pass'), failed: count('fail') });
    });
  });
}

/** The failing part of a TAP log, for an assertion message. */
export function failures(output: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => /^\s*not ok/.test(l));
  return start === -1 ? output.slice(-3000) : lines.slice(Math.max(0, start - 2), start + 40).join('\n');
}
