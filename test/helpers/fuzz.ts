// A seeded generator for the fuzz tests, so a failure can be replayed with
// the seed it prints.

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Fuzz {
  random: () => number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** Up to `max` characters, with quotes, brackets, control characters and non-ASCII. */
  text(max: number): string;
  scalar(): unknown;
  /** Nested arrays/objects of scalars, with keys that tempt prototype pollution. */
  value(depth?: number): unknown;
}

export function fuzzer(seed: number): Fuzz {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const text = (max: number) =>
    Array.from({ length: int(max) }, () => pick(['a', 'Z', '0', ' ', '"', "'", '\\', '{', '}', '[', ']', ':', ',', '\t', '\n', '\u0000', '\u2028', 'é', '😀', '\r', '%', '$', '/', '..'])).join('');
  const scalar = (): unknown => pick([null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 'x', '', 'true', 'false', text(20), Number.NaN]);
  const value = (depth = 0): unknown => {
    if (depth > 3) return scalar();
    switch (int(4)) {
      case 0: return Array.from({ length: int(4) }, () => value(depth + 1));
      case 1: return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(['a', 'name', 'arguments', '_meta', '__proto__', 'constructor', 'prototype', text(8)]), value(depth + 1)]));
      default: return scalar();
    }
  };
  return { random, int, pick, text, scalar, value };
}
