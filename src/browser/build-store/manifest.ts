// SHA256SUMS as the vendor publishes it: `sha256sum` lines plus one
// `version=<v>` line that binds the signature to a version (no signed downgrade).
export interface Manifest {
  version: string | undefined;
  entries: Map<string, string>;
}

export function parseManifest(text: string): Manifest {
  const entries = new Map<string, string>();
  let version: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const sum = line.match(/^([0-9a-fA-F]{64}) [ *](\S+)$/);
    if (sum) entries.set(sum[2]!, sum[1]!.toLowerCase());
    else if (line.startsWith('version=')) version = line.slice('version='.length);
  }
  return { version, entries };
}
