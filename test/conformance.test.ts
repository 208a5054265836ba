import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startHttpServer } from './helpers/http-server.ts';
import { ROOT, testEnv } from './helpers/server.ts';

// The official conformance suite against our HTTP endpoint. Scenarios that
// need capabilities a tools-only browser server does not have are listed, with
// the reason, in conformance-baseline.yml; any other failure fails this test,
// and so does a listed scenario that starts passing (the baseline is stale).
test('MCP conformance suite (server scenarios) passes apart from the baseline', async () => {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-conformance-'));
  const server = await startHttpServer(testEnv(outputDir, { STEALTH_PLAYWRIGHT_MCP_LOG_LEVEL: 'warn' }));
  try {
    const cli = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, 'server', '--url', server.url, '--expected-failures', path.join(ROOT, 'test', 'conformance-baseline.yml'), '--output-dir', path.join(outputDir, 'results')],
        { timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
      );
    });
    const summary = result.out.slice(result.out.indexOf('=== SUMMARY ==='));
    assert.equal(result.code, 0, summary);
    assert.match(summary, /✓ server-initialize/);
    assert.match(summary, /✓ tools-list/);
    assert.match(summary, /✓ dns-rebinding-protection/);
  } finally {
    await server.stop();
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
});
