#!/usr/bin/env node
import nodeModule from 'node:module';
import { nodeVersionSupported } from './runtime.ts';

declare const Bun: unknown;

if (typeof Bun === 'undefined' && !nodeVersionSupported(process.versions.node)) {
  process.stderr.write(`stealth-playwright-mcp needs Node.js 22.13+ (22.x) or 24+; this is Node ${process.versions.node}. Install a supported Node, or use the standalone binary.\n`);
  process.exit(1);
}

// On Node, keep compiled code of the bridge, the SDK and playwright-core on
// disk between starts (about a fifth off spawn -> tools/list); the binary is
// already bytecode. A cache that cannot be written only costs that speed-up.
if (typeof Bun === 'undefined') {
  try {
    nodeModule.enableCompileCache?.();
  } catch {
    // no cache
  }
}

// The binary runs on JavaScriptCore: a result JSON.stringify cannot take fails in V8's words, as under Node.
if (typeof Bun !== 'undefined') (await import('./json-errors.ts')).rewordJsonErrorsAsV8();

const { runCli } = await import('./cli/run.ts');
await runCli(process.argv.slice(2));
