import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir, userTempDir } from '../fs/private-dir.ts';

// Playwright writes a context's live trace into its browser's tracesDir, a
// launch option; the upstream links the trace at `<its output dir>/traces`.
// Over stdio that dir follows the client's first root, which the upstream
// asks for at its first tool call, long after our browser was launched (at
// the server's start). So the browser gets a link of ours as its tracesDir,
// pointed at the upstream's traces dir once the workspace is known.

/** The tracesDir of a stdio session's browser: a symlink to where the upstream links traces. */
export class TracesLink {
  readonly path: string;

  constructor(sessionId: string) {
    this.path = path.join(userTempDir('stealth-playwright-mcp-traces'), sessionId);
  }

  /** Traces go to `dir` from now on (made if missing: Playwright makes only the subdirs, through the link). */
  pointAt(dir: string): void {
    fs.mkdirSync(dir, { recursive: true });
    ensurePrivateDir(path.dirname(this.path));
    const next = `${this.path}.${process.pid}.tmp`;
    fs.rmSync(next, { force: true });
    fs.symlinkSync(dir, next, 'dir');
    // Atomic: a trace being written meanwhile keeps the old target's files whole.
    fs.renameSync(next, this.path);
  }

  /** The link only; the traces stay where they were written. */
  remove(): void {
    fs.rmSync(this.path, { force: true });
  }
}
