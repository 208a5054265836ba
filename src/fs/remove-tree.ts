import fs from 'node:fs';

const ATTEMPTS = 10;
const PAUSE_MS = 20;

/**
 * Removes a directory tree synchronously, checking that it is gone and trying
 * again if not. Bun's rmSync returns without an error yet leaves part of the
 * tree when another removal of it is under way (Playwright's asynchronous
 * cleanup of a closed browser's profile, still running when the server exits):
 * the compiled binary left such profiles in TMPDIR. A file a dying helper
 * process writes meanwhile fails it the same way on Node (ENOTEMPTY).
 * Returns whether the tree is gone.
 */
export function removeTreeSync(dir: string): boolean {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // tried again below
    }
    if (!fs.existsSync(dir)) return true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
  }
  return false;
}
