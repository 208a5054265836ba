import fs from 'node:fs/promises';
import path from 'node:path';
import { UNSAFE_CODE_TOOL } from './tool-policy.ts';

/** A file of code larger than this is not read for its page functions (the call runs as upstream). */
const MAX_CODE_FILE_BYTES = 1 << 20;

/**
 * The code browser_run_code_unsafe runs: the page functions it hands
 * Playwright are in it (browser/quiet-runtime/user-evaluate.ts). A `filename`
 * wins over `code`, as upstream, and is read against the working directory;
 * one that cannot be read here is left to the upstream's own answer.
 */
export async function userCodeOf(params: { name: string; arguments?: Record<string, unknown> }): Promise<string | undefined> {
  if (params.name !== UNSAFE_CODE_TOOL) return undefined;
  const { code, filename } = params.arguments ?? {};
  if (typeof filename !== 'string') return typeof code === 'string' ? code : undefined;
  try {
    const file = path.resolve(process.cwd(), filename);
    const stat = await fs.stat(file);
    return stat.isFile() && stat.size <= MAX_CODE_FILE_BYTES ? await fs.readFile(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
