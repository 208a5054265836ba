import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';

// Every setting arrives as a string (env var or flag value) and is turned into
// its typed value by one of these schemas; defaults go through the same schema.
export interface Kind<T> {
  /** What `--help` and errors say is accepted. */
  accepts: string;
  schema: v.GenericSchema<string, T>;
  /** Flags of this kind may be given without a value (`--headless`). */
  bare?: boolean;
  /** Its issue messages explain the problem (without the value): errors include them. */
  detail?: boolean;
}

const TRUE_WORDS = ['true', '1', 'yes', 'on'] as const;
const FALSE_WORDS = ['false', '0', 'no', 'off'] as const;

export const boolean: Kind<boolean> = {
  accepts: 'true/false, 1/0, yes/no, on/off',
  bare: true,
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist([...TRUE_WORDS, ...FALSE_WORDS]),
    v.transform((word) => (TRUE_WORDS as readonly string[]).includes(word)),
  ),
};

export function integer(min: number, max: number): Kind<number> {
  return {
    accepts: `a whole number from ${min} to ${max}`,
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+$/),
      v.transform(Number),
      v.minValue(min),
      v.maxValue(max),
    ),
  };
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): Kind<T[number]> {
  return {
    accepts: `one of ${values.join(', ')}`,
    schema: v.pipe(v.string(), v.trim(), v.picklist(values)),
  };
}

export function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/')) return path.join(os.homedir(), p.slice(2));
  return p;
}

export const filePath: Kind<string> = {
  accepts: 'a file system path (~ expands to the home directory)',
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(),
    v.transform((p) => path.resolve(expandHome(p))),
  ),
};

export const text: Kind<string> = {
  accepts: 'a non-empty string',
  schema: v.pipe(v.string(), v.trim(), v.nonEmpty()),
};

export const commaList: Kind<string[]> = {
  accepts: 'a comma-separated list',
  schema: v.pipe(
    v.string(),
    v.transform((s) => s.split(',').map((item) => item.trim()).filter(Boolean)),
    v.minLength(1),
  ),
};

export const urlPath: Kind<string> = {
  accepts: 'a URL path starting with / (not /healthz, /readyz, /metrics or /sse)',
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\/[A-Za-z0-9._~\-/]*$/),
    v.check((p) => !['/healthz', '/readyz', '/metrics', '/sse'].includes(p)),
  ),
};

export const portRange: Kind<{ first: number; last: number }> = {
  accepts: 'a port range first-last, e.g. 9300-9399 (1024-65535)',
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+-\d+$/),
    v.transform((s) => {
      const [first, last] = s.split('-').map(Number) as [number, number];
      return { first, last };
    }),
    v.check(({ first, last }) => first >= 1024 && last <= 65535 && first <= last),
  ),
};

// Safe in a header, a log line and an HAProxy rule; a Kubernetes pod name fits.
export const replicaId: Kind<string> = {
  accepts: '1-63 letters, digits, _ and - (a pod name fits)',
  schema: v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9_-]{1,63}$/)),
};
