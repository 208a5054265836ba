import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers/server.ts';

// `npm test` runs the layer rules on src/ first (npm run lint:layers); this
// shows they bite: a config module importing the session layer is refused.
test('the layer rules refuse an import from a higher layer', () => {
  const bin = path.join(ROOT, 'node_modules', '.bin');
  const result = spawnSync(path.join(bin, 'depcruise'), ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], {
    cwd: path.join(ROOT, 'test', 'fixtures', 'layers'),
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? '/root' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /config-not-above: src\/config\/x\.ts → src\/session\/y\.ts/);
});
