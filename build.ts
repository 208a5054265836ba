// Builds the npm package entry (dist/node/cli.mjs) and, with --bin, the
// standalone executable. Bun is the build tool only; see shared/research/toolchain.md §2.
import { chmod } from 'node:fs/promises';

const wantNode = !process.argv.includes('--bin') || process.argv.includes('--node');
const wantBin = process.argv.includes('--bin');

if (wantNode) {
  const result = await Bun.build({
    entrypoints: ['./src/main.ts'],
    target: 'node',
    format: 'esm',
    packages: 'external',
    outdir: './dist/node',
    naming: 'cli.mjs',
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  await chmod('./dist/node/cli.mjs', 0o755);
  console.error('built dist/node/cli.mjs');
}

if (wantBin) {
  console.error('the standalone binary build is not implemented yet (issue: distribution)');
  process.exit(1);
}
