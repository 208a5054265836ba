#!/usr/bin/env node
import { nodeVersionSupported } from './runtime.ts';

declare const Bun: unknown;

if (typeof Bun === 'undefined' && !nodeVersionSupported(process.versions.node)) {
  process.stderr.write(`stealth-playwright-mcp needs Node.js 22.13+ (22.x) or 24+; this is Node ${process.versions.node}. Install a supported Node, or use the standalone binary.\n`);
  process.exit(1);
}

const { runCli } = await import('./cli/run.ts');
await runCli(process.argv.slice(2));
