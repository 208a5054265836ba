import { execFile, execFileSync } from 'node:child_process';
import { PODMAN_GLOBAL } from '../../scripts/container/podman-flags.ts';

export { PODMAN_GLOBAL };

/** `podman run` flags of a hardened run: read-only root with the writable paths the image documents (explicit ulimits: the defaults fail here). */
export function hardenedRunFlags(name: string): string[] {
  return [
    'run', '--rm', '--name', name,
    '--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768',
    '--read-only',
    '--tmpfs', '/tmp:rw,mode=1777',
    '--tmpfs', '/tmp/.X11-unix:rw,mode=1777',
    // Anonymous volumes start as copies of the image's directories (owned by node);
    // podman 4.3's --tmpfs takes no uid= option.
    '-v', '/home/node/.stealth',
    '--cap-drop', 'all', '--security-opt', 'no-new-privileges',
    // The test site and the HTTP endpoint are on the host's loopback.
    '--network', 'host',
    '--shm-size', '256m',
  ];
}

export function podman(args: string[], timeoutMs = 120_000): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile('podman', [...PODMAN_GLOBAL, ...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export function podmanSync(args: string[]): string {
  return execFileSync('podman', [...PODMAN_GLOBAL, ...args], { encoding: 'utf8' });
}
