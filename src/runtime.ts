// Which runtime runs us, and whether it is one we support (Node 22.13+ or 24+, or Bun).
export interface RuntimeInfo {
  name: 'node' | 'bun';
  version: string;
  supported: boolean;
  required: string;
}

declare const Bun: { version: string } | undefined;

export function nodeVersionSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 22 && minor >= 13) || major >= 24;
}

export function runtimeInfo(): RuntimeInfo {
  if (typeof Bun !== 'undefined') return { name: 'bun', version: Bun.version, supported: true, required: 'any (compiled binary)' };
  return { name: 'node', version: process.versions.node, supported: nodeVersionSupported(process.versions.node), required: '22.13+ (22.x) or 24+' };
}

/** The Bun-compiled standalone binary: it reports its embedded entry under /$bunfs/ (B:/~BUN/ on Windows). */
export function isCompiledBinary(script: string | undefined = process.argv[1]): boolean {
  return script !== undefined && (script.startsWith('/$bunfs/') || script.startsWith('B:/~BUN/'));
}
