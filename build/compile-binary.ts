// One standalone executable per target: the bridge, the upstream and
// playwright-core compiled together with the Bun runtime, runnable with no
// node_modules anywhere. Cross targets: Bun fetches that target's runtime
// from the npm registry (@oven/bun-linux-aarch64) and caches it in ~/.bun.
import path from 'node:path';
import type { EmbeddedPackages } from '../src/embedded-packages.ts';
import { ownSourceRequires } from './own-source-requires.ts';
import { playwrightStaticRequires } from './playwright-static-requires.ts';

export interface TargetSpec {
  /** Release file suffix, as install.sh computes it from uname: <os>-<arch>. */
  name: string;
  bun: Bun.Build.CompileTarget;
  /** Part of a release by default. The darwin builds compile here but cannot be run or tested here. */
  release: boolean;
}

export const TARGETS = {
  'linux-x64': { name: 'linux-x64', bun: 'bun-linux-x64', release: true },
  'linux-arm64': { name: 'linux-arm64', bun: 'bun-linux-arm64', release: true },
  'darwin-arm64': { name: 'darwin-arm64', bun: 'bun-darwin-arm64', release: false },
  'darwin-x64': { name: 'darwin-x64', bun: 'bun-darwin-x64', release: false },
} satisfies Record<string, TargetSpec>;

export type Target = keyof typeof TARGETS;

export const BINARY_PREFIX = 'stealth-playwright-mcp-';

/** Compiles src/main.ts for `target` into `outdir`; returns the file. */
export async function compileBinary(target: TargetSpec, outdir: string, packages: EmbeddedPackages): Promise<string> {
  const outfile = path.join(outdir, `${BINARY_PREFIX}${target.name}`);
  const result = await Bun.build({
    // Bun.build throws an AggregateError whose message is only "Bundle failed";
    // the reasons are in .errors (see describeBuildError).
    throw: true,
    entrypoints: [path.join(import.meta.dir, '..', 'src', 'main.ts')],
    compile: {
      target: target.bun,
      outfile,
      // A user's .env or bunfig.toml in their working directory must not
      // change what the server does.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    // playwright-core 1.64-alpha requires chromium-bidi unconditionally in a
    // lazy init the MCP tools never run (BiDi over CDP); it is not installed.
    external: ['chromium-bidi', 'chromium-bidi/*'],
    loader: { '.wasm': 'file' },
    plugins: [playwrightStaticRequires, ownSourceRequires(path.join(import.meta.dir, '..', 'src'))],
    define: { STEALTH_EMBEDDED_PACKAGES: JSON.stringify(packages) },
    // bytecode needs ESM here: the default CJS wrapper rejects import.meta.
    format: 'esm',
    minify: true,
    bytecode: true,
  });
  if (!result.success) throw new Error(result.logs.map(String).join('\n'));
  return outfile;
}

/** The reasons behind a failed Bun.build, not just "Bundle failed". */
export function describeBuildError(error: unknown): string {
  const inner = (error as { errors?: unknown[] }).errors;
  if (Array.isArray(inner) && inner.length) return inner.map((e) => String((e as { message?: string }).message ?? e)).join('\n');
  return error instanceof Error ? error.message : String(error);
}
