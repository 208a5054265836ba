import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Logger } from '../../log.ts';
import { BuildStoreError, FIXES, redactUrl } from './errors.ts';
import { progressReporter } from './progress.ts';

// ofetch (and the fetch polyfill it pulls in) loads only when something is
// fetched: a start with a build already on disk never needs it.
const http = () => import('ofetch').then((m) => m.ofetch);

/** The HTTP status of an ofetch error (FetchError), if it is one. */
function statusOf(error: unknown): number | undefined {
  const e = error as { name?: unknown; statusCode?: unknown } | undefined;
  return e?.name === 'FetchError' && typeof e.statusCode === 'number' ? e.statusCode : undefined;
}

const SMALL_TIMEOUT_MS = 15_000;
/** No byte for this long ends a download (a stalled mirror must not hang a session). */
const STALL_TIMEOUT_MS = 30_000;

function networkError(url: string, error: unknown, what: string): BuildStoreError {
  const status = statusOf(error);
  if (status === 404 || status === 410)
    return new BuildStoreError('not-found', `${what} ${redactUrl(url)} is not there (HTTP ${status}). Fix: check STEALTH_DOWNLOAD_URL (--download-url) serves the vendor's layout, or ${FIXES.network}.`, { cause: error });
  if (status === 401 || status === 403)
    return new BuildStoreError('licence', `${what} ${redactUrl(url)} was refused (HTTP ${status}): the licence key is missing, invalid or expired. Fix: run \`stealth-playwright-mcp login\` with a valid key, or unset STEALTH_LICENSE_KEY to use the keyless build.`, { cause: error });
  const reason = status ? `HTTP ${status}` : (causeCode(error) ?? (error as Error).message?.split('\n')[0] ?? String(error));
  return new BuildStoreError('network', `Could not fetch ${what} ${redactUrl(url)} (${reason}). Fix: ${FIXES.network}.`, { cause: error });
}

/** The system error code (ECONNREFUSED, ENOTFOUND, ...) in a fetch error's cause chain, else the innermost message. */
function causeCode(error: unknown): string | undefined {
  let innermost: string | undefined;
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
    if (typeof e.message === 'string') innermost = e.message;
  }
  return innermost;
}

/** A small file (manifest, signature); `undefined` when the server says it does not exist. */
export async function fetchSmall(url: string, headers: Record<string, string>, what: string): Promise<Buffer | undefined> {
  try {
    const data = await (await http())(url, { headers, responseType: 'arrayBuffer', retry: 1, timeout: SMALL_TIMEOUT_MS });
    return Buffer.from(data);
  } catch (error) {
    const status = statusOf(error);
    if (status === 404 || status === 410) return undefined;
    throw networkError(url, error, what);
  }
}

export async function fetchJson<T>(url: string, init: { headers: Record<string, string>; method?: 'GET' | 'POST'; body?: Record<string, unknown> }, what: string): Promise<T> {
  try {
    return await (await http())<T>(url, { ...init, retry: 1, timeout: SMALL_TIMEOUT_MS });
  } catch (error) {
    throw networkError(url, error, what);
  }
}

export interface Downloaded {
  sha256: string;
  bytes: number;
}

/**
 * Streams `url` into `file` (created exclusively), hashing as it goes. A short
 * body is a network error (truncated), not a checksum error: the bytes that
 * arrived may well be the vendor's.
 */
export async function downloadTo(url: string, file: string, headers: Record<string, string>, log: Logger, label: string): Promise<Downloaded> {
  const abort = new AbortController();
  let stall = setTimeout(() => abort.abort(new Error(`no data for ${STALL_TIMEOUT_MS / 1000} s`)), STALL_TIMEOUT_MS);
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const outDone = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
  });
  outDone.catch(() => {}); // observed below; a write error must not be an unhandled rejection
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  let expected: number | undefined;
  try {
    let response;
    try {
      response = await (await http()).raw(url, { headers, responseType: 'stream', retry: 0, signal: abort.signal });
    } catch (error) {
      throw networkError(url, abort.signal.aborted ? abort.signal.reason : error, 'the build archive');
    }
    const length = Number(response.headers.get('content-length'));
    expected = Number.isFinite(length) && length > 0 ? length : undefined;
    const progress = progressReporter(log, label, expected);
    const reader = (response._data as ReadableStream<Uint8Array>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        clearTimeout(stall);
        stall = setTimeout(() => abort.abort(new Error(`no data for ${STALL_TIMEOUT_MS / 1000} s`)), STALL_TIMEOUT_MS);
        hash.update(value);
        bytes += value.length;
        if (out.errored) throw out.errored;
        if (!out.write(value)) await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), outDone]);
        if (out.errored) throw out.errored;
        progress.update(bytes);
      }
    } catch (error) {
      if (error instanceof BuildStoreError || isDiskError(error)) throw error;
      throw new BuildStoreError('network', `The download of ${redactUrl(url)} broke off after ${bytes} bytes (${abort.signal.aborted ? (abort.signal.reason as Error).message : ((error as Error).message ?? String(error))}). Fix: retry; ${FIXES.network}.`, { cause: error });
    }
    if (expected !== undefined && bytes !== expected)
      throw new BuildStoreError('network', `The download of ${redactUrl(url)} was truncated: ${bytes} of ${expected} bytes arrived. Fix: retry; ${FIXES.network}.`);
    out.end();
    await outDone;
    progress.done(bytes);
    return { sha256: hash.digest('hex'), bytes };
  } catch (error) {
    out.destroy();
    await outDone.catch(() => {});
    if (isDiskError(error))
      throw new BuildStoreError('disk', `Could not write the build archive to ${file} (${(error as NodeJS.ErrnoException).code}). Fix: ${FIXES.disk}.`, { cause: error });
    throw error;
  } finally {
    clearTimeout(stall);
    abort.abort();
  }
}

export function isDiskError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
}
