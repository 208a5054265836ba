import fs from 'node:fs';

/** Whether a process id is alive on this host (EPERM: alive, but not ours). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// A killed browser whose parent died too (a SIGKILLed server) waits as a
// zombie until init reaps it, which a container's init may do late or never;
// it holds no profile, so it must not count as the lock's live owner.
function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return false; // no /proc (not Linux): kill(0) has the last word
  }
}
