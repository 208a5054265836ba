import fs from 'node:fs/promises';
import path from 'node:path';
import { makeDir } from '../../fs/make-dir.ts';

/** A profile problem the operator or client can fix; the message says how. */
export class ProfileError extends Error {
  override name = 'ProfileError';
  /** 409 for "in use", 400 for a bad name, 500 for the server's own file system. */
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

// A name is one path segment of safe characters: no separators, no `..`, no
// leading dot (hidden files, `.` and `..`), nothing a shell or URL mangles.
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const PROFILE_NAME_ACCEPTS = '1 to 64 characters of letters, digits, ".", "_" and "-", starting with a letter or digit';

export function validProfileName(name: string): boolean {
  return NAME.test(name) && !name.includes('..');
}

/** `<output-dir>/profiles`: named profiles live here and nowhere else. */
export function profilesRoot(outputDir: string): string {
  return path.join(outputDir, 'profiles');
}

/**
 * `<root>/<name>`, created if missing and checked writable. The name is
 * validated and the result re-checked after resolving links, so a client can
 * never make the server create or read a directory outside the root.
 */
export async function namedProfileDir(root: string, name: string): Promise<string> {
  if (!validProfileName(name)) throw new ProfileError(`Invalid profile name ${JSON.stringify(name.slice(0, 80))}: use ${PROFILE_NAME_ACCEPTS}.`, 400);
  await makeDir(root, 0o700);
  const realRoot = await fs.realpath(root);
  const dir = path.join(realRoot, name);
  await fs.mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) throw new ProfileError(`Profile ${name} is not a directory under ${realRoot} (a link or a file is in its place). Fix: remove ${dir}, or use another name.`, 409);
  if (path.dirname(await fs.realpath(dir)) !== realRoot) throw new ProfileError(`Profile ${name} resolves outside ${realRoot}. Fix: remove ${dir}.`, 409);
  await assertWritable(dir, `profile ${name}`);
  return dir;
}

/** An operator-given directory (PLAYWRIGHT_MCP_USER_DATA_DIR): created if missing, checked writable. */
export async function userDataDir(dir: string, origin: string): Promise<string> {
  try {
    await makeDir(dir, 0o700);
  } catch (error) {
    throw new ProfileError(`${origin} ${dir} cannot be created (${(error as NodeJS.ErrnoException).code}). Fix: point it at a directory this server may write, or create it.`, 500);
  }
  const real = await fs.realpath(dir);
  if (!(await fs.stat(real)).isDirectory()) throw new ProfileError(`${origin} ${dir} is not a directory. Fix: point it at a directory.`, 500);
  await assertWritable(real, `${origin} ${dir}`);
  return real;
}

async function assertWritable(dir: string, what: string): Promise<void> {
  try {
    await fs.access(dir, fs.constants.W_OK | fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    throw new ProfileError(`${what} (${dir}) is not writable by this server (uid ${process.getuid?.() ?? '?'}). Fix: chown or chmod it, or use another directory.`, 500);
  }
}
