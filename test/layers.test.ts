import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, runToEnd } from './helpers/server.ts';

// `npm test` runs the layer rules on src/ first (npm run lint:layers); this
// shows they bite: a config module importing the session layer is refused.
test('the layer rules refuse an import from a higher layer', async () => {
  const fixture = path.join(ROOT, 'test', 'fixtures', 'layers');
  const bin = path.join(ROOT, 'node_modules', '.bin');
  const result = await runToEnd(path.join(bin, 'depcruise'), ['src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? '/root' }, 60_000);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /config-not-above: src\/config\/x\.ts → src\/session\/y\.ts/);
});
