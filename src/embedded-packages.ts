// Versions of the packages compiled into the standalone binary. build.ts sets
// STEALTH_EMBEDDED_PACKAGES (a Bun.build define) for the binary only: there,
// no node_modules exists to resolve them from. In the npm package (and under
// the tests' type stripping) it is not defined, and the packages are resolved
// from node_modules at run time.
export interface EmbeddedPackage {
  name: string;
  version: string;
}

export interface EmbeddedPackages {
  upstream: EmbeddedPackage;
  playwright: EmbeddedPackage;
  playwrightCore: EmbeddedPackage;
}

declare const STEALTH_EMBEDDED_PACKAGES: EmbeddedPackages | undefined;

export const embeddedPackages: EmbeddedPackages | null =
  typeof STEALTH_EMBEDDED_PACKAGES === 'undefined' ? null : STEALTH_EMBEDDED_PACKAGES;
