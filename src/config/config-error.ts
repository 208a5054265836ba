// A configuration problem the user can fix; the CLI prints the message alone
// (no stack) and exits with EXIT_USAGE.
export const EXIT_USAGE = 2;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function describeValue(raw: string, secret: boolean | undefined): string {
  return secret ? '"<redacted>"' : JSON.stringify(raw);
}

/** Suggests the closest known name for a typo (edit distance ≤ 3). */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
