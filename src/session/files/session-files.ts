import { watch, type FSWatcher } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '../../mcp-sdk.ts';
import { isText, mimeTypeOf } from './mime.ts';

export const RESOURCE_SCHEME = 'stealth-playwright-mcp:';
const PREFIX = `${RESOURCE_SCHEME}//session/`;
// A walk that never ends (a symlink loop, a huge tree) must not hold a call.
const MAX_FILES = 10_000;
// With a watcher, a call walks the directory only when something changed, or
// this long after the last walk (an event a watcher may miss: a full queue).
const REWALK_MS = 5000;

export interface FileLimits {
  /** resources/read refuses larger files (--resource-max-bytes). */
  readMaxBytes: number;
  /**
   * A directory other sessions and earlier runs write too (over stdio the
   * upstream's default, `.playwright-mcp` under the working directory, or a
   * given --output-dir): files last written before this time (ms) are theirs,
   * not listed.
   */
  since?: number;
}

/**
 * The files a session's tools wrote under its output directory, as MCP
 * resources of that session only. A URI names a path relative to the
 * session's directory; nothing outside it can be named or read.
 */
export class SessionFiles {
  #dir: string;
  #limits: FileLimits;
  #lastListing = '';
  #lastBytes = 0;
  // The walk after every tool call was ~4% of the server's CPU in an 8-session
  // snapshot loop (bench 5b); a watcher says when there is something to see.
  #watcher: FSWatcher | undefined;
  #dirty = true;
  #lastWalk = 0;

  constructor(dir: string, limits: FileLimits) {
    this.#dir = dir;
    this.#limits = limits;
  }

  get dir(): string {
    return this.#dir;
  }

  /** Over stdio the upstream's dir follows the client's first root, known at its first tool call. */
  moveTo(dir: string): void {
    if (dir === this.#dir) return;
    this.close();
    this.#dir = dir;
    this.#dirty = true;
    this.#lastListing = '';
  }

  uriOf(file: string): string {
    return PREFIX + path.relative(this.dir, file).split(path.sep).map(encodeURIComponent).join('/');
  }

  async list(): Promise<Resource[]> {
    const out: Resource[] = [];
    for (const { file, size } of await this.#walk()) {
      const mimeType = mimeTypeOf(file);
      out.push({ uri: this.uriOf(file), name: path.relative(this.dir, file), mimeType, size });
    }
    return out;
  }

  /**
   * Whether the listing differs from the last call's, and the bytes under the
   * directory; walks only when something changed, or when `force` (a result
   * that names a file: its watcher event may still be on the way).
   */
  async refresh(force = false): Promise<{ changed: boolean; bytes: number }> {
    this.#watch();
    if (!force && this.#watcher && !this.#dirty && Date.now() - this.#lastWalk < REWALK_MS) return { changed: false, bytes: this.#lastBytes };
    this.#dirty = false;
    this.#lastWalk = Date.now();
    const files = await this.#walk();
    const listing = files.map((f) => `${f.file}\0${f.size}`).join('\n');
    const changed = listing !== this.#lastListing;
    this.#lastListing = listing;
    this.#lastBytes = files.reduce((sum, f) => sum + f.size, 0);
    return { changed, bytes: this.#lastBytes };
  }

  // Until the directory exists (or where recursive watching fails), every refresh walks.
  #watch(): void {
    if (this.#watcher) return;
    try {
      this.#watcher = watch(this.dir, { recursive: true, persistent: false }, () => (this.#dirty = true));
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
        this.#dirty = true;
      });
      this.#dirty = true;
    } catch {
      this.#watcher = undefined;
    }
  }

  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  async read(uri: string): Promise<{ uri: string; mimeType: string; text?: string; blob?: string }> {
    const file = await this.#resolve(uri);
    const stat = await fs.stat(file);
    if (stat.size > this.#limits.readMaxBytes)
      throw new McpError(
        ErrorCode.InvalidParams,
        `${uri} is ${stat.size} bytes, more than this server sends (--resource-max-bytes, ${this.#limits.readMaxBytes}). Ask the operator to raise it, or produce a smaller file.`,
      );
    const handle = await fs.open(file, 'r');
    try {
      // Never more than the cap, even if the file grew since stat().
      const buffer = Buffer.alloc(Math.min(stat.size, this.#limits.readMaxBytes));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const data = buffer.subarray(0, bytesRead);
      const mimeType = mimeTypeOf(file);
      return isText(mimeType) ? { uri, mimeType, text: data.toString('utf8') } : { uri, mimeType, blob: data.toString('base64') };
    } finally {
      await handle.close();
    }
  }

  /** The absolute path a URI names, or a JSON-RPC error when it names nothing of this session. */
  async #resolve(uri: string): Promise<string> {
    const refuse = (why: string) => new McpError(ErrorCode.InvalidParams, `Resource ${JSON.stringify(uri.slice(0, 200))} ${why}.`);
    if (!uri.startsWith(PREFIX)) throw refuse(`is not a file of this session (URIs start with ${PREFIX})`);
    let relative: string;
    try {
      relative = uri.slice(PREFIX.length).split('/').map(decodeURIComponent).join('/');
    } catch {
      throw refuse('is not a valid URI');
    }
    if (!relative || relative.includes('\0') || path.isAbsolute(relative) || relative.split(/[\\/]/).includes('..')) throw refuse('leaves the session directory');
    const file = path.join(this.dir, relative);
    const [realDir, realFile] = await Promise.all([fs.realpath(this.dir).catch(() => this.dir), fs.realpath(file).catch(() => undefined)]);
    if (!realFile) throw refuse('does not exist (resources/list shows what does)');
    if (path.relative(realDir, realFile).startsWith('..') || path.isAbsolute(path.relative(realDir, realFile))) throw refuse('leaves the session directory (a link)');
    if (!(await fs.stat(realFile)).isFile()) throw refuse('is not a file');
    return realFile;
  }

  async #walk(): Promise<{ file: string; size: number }[]> {
    const out: { file: string; size: number }[] = [];
    const queue = [this.dir];
    while (queue.length && out.length < MAX_FILES) {
      const dir = queue.shift()!;
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        // Links are not followed: they could lead out of the directory.
        if (entry.isDirectory()) queue.push(full);
        else if (entry.isFile()) {
          const stat = await fs.stat(full).catch(() => undefined);
          if (stat && (this.#limits.since === undefined || stat.mtimeMs >= this.#limits.since)) out.push({ file: full, size: stat.size });
        }
      }
    }
    return out.sort((a, b) => a.file.localeCompare(b.file));
  }

  /** Links to files of this session named in a tool result's text (paths as the upstream prints them). */
  async linksIn(text: string, cwd: string): Promise<{ type: 'resource_link'; uri: string; name: string; mimeType: string; size: number }[]> {
    const links = [];
    const seen = new Set<string>();
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.replace(/#.*$/, '');
      const file = path.resolve(cwd, target);
      if (seen.has(file) || path.relative(this.dir, file).startsWith('..')) continue;
      seen.add(file);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat?.isFile()) continue;
      links.push({ type: 'resource_link' as const, uri: this.uriOf(file), name: path.relative(this.dir, file), mimeType: mimeTypeOf(file), size: stat.size });
    }
    return links;
  }
}
