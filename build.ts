// Builds the npm package entry (dist/node/cli.mjs) and, with --bin, the
// standalone executables. Bun is the build tool only; the fixes the binary
// needs are explained in shared/research/toolchain.md §2.
//
//   bun run build.ts                      dist/node/cli.mjs
//   bun run build.ts --bin                dist/bin/stealth-playwright-mcp-linux-{x64,arm64} + SHA256SUMS + install.sh
//   bun run build.ts --bin --node         both
//   bun run build.ts --bin --target linux-x64 --outdir /tmp/x   one target, elsewhere
//   bun run build.ts --bin --target darwin-arm64,darwin-x64        opt-in: builds, untested here
import { chmod, copyFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { compileBinary, describeBuildError, TARGETS, type Target } from './build/compile-binary.ts';
import { embeddedPackages } from './build/embedded-packages.ts';
import { writeChecksums } from './build/checksums.ts';
import { emptyDir, swapDir } from './build/fs.ts';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  if (index === -1) return undefined;
  const value = process.argv[index + 1];
  if (!value || value.startsWith('--')) fail(`${name} needs a value`);
  return value;
}

function fail(message: string): never {
  console.error(`build: ${message}`);
  process.exit(1);
}

/** One ESM entry for Node with its lazily loaded chunks, into `outdir`; exits on a build error. */
async function buildEntry(entry: string, outdir: string, naming: { entry: string; chunk: string }) {
  const result = await Bun.build({ entrypoints: [entry], target: 'node', format: 'esm', packages: 'external', outdir, naming, splitting: true });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  return result;
}

const wantBin = process.argv.includes('--bin');
const wantNode = !wantBin || process.argv.includes('--node');

if (wantNode) {
  // Built aside and swapped in, so a server starting meanwhile never sees half a tree.
  const staging = `./dist/node.${process.pid}`;
  await emptyDir(staging);
  // Without splitting every `await import()` of a command is inlined and
  // evaluated at start: `--version` took 1.2-2.5 s instead of ~0.2 s.
  const cli = await buildEntry('./src/main.ts', staging, { entry: 'cli.mjs', chunk: 'chunks/[name]-[hash].mjs' });
  // The programmatic entry (createConnection, as Playwright MCP exports it), built on its own so the CLI's start stays as it is.
  await buildEntry('./src/api/index.ts', staging, { entry: 'index.mjs', chunk: 'api-chunks/[name]-[hash].mjs' });
  await copyFile('./src/api/index.d.ts', `${staging}/index.d.ts`);
  await chmod(`${staging}/cli.mjs`, 0o755);
  await rm('./dist/node', { recursive: true, force: true });
  await rename(staging, './dist/node');
  console.error(`built dist/node/cli.mjs (+${cli.outputs.length - 1} lazily loaded chunks) and dist/node/index.mjs`);
}

if (wantBin) {
  const requested = option('--target')?.split(',') ?? Object.values(TARGETS).filter((t) => t.release).map((t) => t.name);
  for (const name of requested)
    if (!(name in TARGETS)) fail(`unknown --target ${name}; known: ${Object.keys(TARGETS).join(', ')}`);
  const finalDir = path.resolve(option('--outdir') ?? 'dist/bin');
  // A release directory holds exactly what this run built, so SHA256SUMS never
  // vouches for a stale binary from an earlier build. It is built aside and
  // swapped in at the end, so a reader never finds it half-built or empty.
  const outdir = `${finalDir}.building-${process.pid}`;
  await emptyDir(outdir);
  let packages;
  try {
    packages = embeddedPackages(import.meta.dir);
  } catch (error) {
    fail((error as Error).message);
  }
  const built: string[] = [];
  for (const name of requested) {
    const started = performance.now();
    try {
      built.push(await compileBinary(TARGETS[name as Target], outdir, packages));
    } catch (error) {
      await rm(outdir, { recursive: true, force: true });
      fail(`${name}: ${describeBuildError(error)}`);
    }
    const file = built.at(-1)!;
    console.error(`built ${path.relative(process.cwd(), path.join(finalDir, path.basename(file)))} (${(Bun.file(file).size / 1e6).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms)`);
  }
  await writeChecksums(outdir, built);
  // The installer travels with the release, so <release>/install.sh fetches
  // the binaries next to it; it is what verifies them, so it is not summed.
  await copyFile(path.join(import.meta.dir, 'install.sh'), path.join(outdir, 'install.sh'));
  await swapDir(outdir, finalDir);
  console.error(`wrote ${path.relative(process.cwd(), path.join(finalDir, 'SHA256SUMS'))} and install.sh`);
}
