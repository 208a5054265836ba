import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers/server.ts';

const check = (root: string) =>
  spawnSync(process.execPath, ['--experimental-strip-types', path.join(ROOT, 'scripts', 'check-layers.ts'), root], { encoding: 'utf8', timeout: 60_000 });

// `npm test` runs the layer rules on src/ first (npm run lint:layers); this
// shows they bite: a config module importing the session layer is refused.
test('the layer rules refuse an import from a higher layer, and src/ keeps them', () => {
  const bad = check(path.join(ROOT, 'test', 'fixtures', 'layers'));
  assert.equal(bad.status, 1, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /layer: src\/config\/x\.ts imports src\/session\/y\.ts \(src\/config may not import src\/session\)/);
  const ours = check(ROOT);
  assert.equal(ours.status, 0, ours.stderr);
});
