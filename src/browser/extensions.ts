import fs from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { ConfigError } from '../config/config-error.ts';
import { expandHome, type Kind } from '../config/kinds.ts';

// STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS: one path, or a JSON array when a
// path contains commas or there are several.
export const extensionPathsKind: Kind<string[]> = {
  detail: true,
  accepts: 'a directory path, or a JSON array of directory paths',
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const raw = dataset.value;
      if (!raw.startsWith('[')) return [path.resolve(expandHome(raw))];
      let list: unknown;
      try {
        list = JSON.parse(raw);
      } catch {
        addIssue({ message: 'not valid JSON' });
        return NEVER;
      }
      if (!Array.isArray(list) || list.length === 0 || !list.every((p) => typeof p === 'string' && p.trim() !== '')) {
        addIssue({ message: 'not a non-empty JSON array of paths' });
        return NEVER;
      }
      return list.map((p: string) => path.resolve(expandHome(p.trim())));
    }),
  ),
};

/**
 * Each must be an unpacked extension: a directory with a manifest.json that
 * parses and names a manifest_version. Returns the real paths. Chromium takes
 * the list comma-separated, so a path with a comma cannot be passed at all.
 */
export async function checkExtensions(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const given of paths) {
    const where = `STEALTH_PLAYWRIGHT_MCP_EXTENSION_PATHS (--extension-paths) entry ${JSON.stringify(given)}`;
    let real: string;
    try {
      real = await fs.realpath(given);
      if (!(await fs.stat(real)).isDirectory()) throw new Error('not a directory');
    } catch (error) {
      throw new ConfigError(`${where} is not a readable directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Fix: point it at an unpacked extension directory (the folder that holds manifest.json).`);
    }
    let manifest: { manifest_version?: unknown };
    try {
      manifest = JSON.parse(await fs.readFile(path.join(real, 'manifest.json'), 'utf8')) as { manifest_version?: unknown };
    } catch (error) {
      throw new ConfigError(`${where} has no readable manifest.json (${(error as NodeJS.ErrnoException).code ?? 'invalid JSON'}). Fix: point it at an unpacked extension (unzip a .crx/.zip first).`);
    }
    if (typeof manifest.manifest_version !== 'number') throw new ConfigError(`${where}: its manifest.json has no manifest_version. Fix: point it at an unpacked Chromium extension.`);
    if (real.includes(',')) throw new ConfigError(`${where} contains a comma, which Chromium's --load-extension cannot take. Fix: move or link the extension to a path without commas.`);
    out.push(real);
  }
  return out;
}

/** Chromium's flags: load these and no others. */
export function extensionArgs(paths: string[]): string[] {
  if (!paths.length) return [];
  return [`--disable-extensions-except=${paths.join(',')}`, `--load-extension=${paths.join(',')}`];
}
