import fsSync from 'node:fs';
import fs from 'node:fs/promises';

// Files other processes read while we may be writing them (another server's
// facts, a reaper reading instance records, the next start reading a launch
// recipe): written whole to a temp file beside the target and renamed over
// it, so a reader sees the old file or the new one, never half of one. The
// temp name carries our pid, so two writers never share one. The mode is set
// explicitly, whatever the umask or a left-over temp file had.

function tempOf(file: string): string {
  return `${file}.${process.pid}.tmp`;
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temp = tempOf(file);
  try {
    await fs.writeFile(temp, data, { mode });
    await fs.chmod(temp, mode);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode = 0o600): void {
  const temp = tempOf(file);
  try {
    fsSync.writeFileSync(temp, data, { mode });
    fsSync.chmodSync(temp, mode);
    fsSync.renameSync(temp, file);
  } catch (error) {
    fsSync.rmSync(temp, { force: true });
    throw error;
  }
}
