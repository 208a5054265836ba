import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A link to an outside application (here zoommtg:) makes Chromium on Linux
// open its "Open xdg-open?" dialog in the tab, headless too, where nobody sees
// it; while it is open the tab takes no input, and every later click reports
// success and reaches nothing. Ours answers Chromium's question before that
// dialog (src/browser/app-link-guard.ts), so the link opens nothing and the
// page goes on, as for a user who dismissed the dialog.

describe('links to outside applications', () => {
  const suite = useHostileSuite('spm-app-links-');

  test('after a zoommtg: link, the next click reaches the page on ours (the upstream CLI alongside, in the same run)', { timeout: 120_000 }, async (t) => {
    const { output, site } = suite;
    const runtimeDir = fs.mkdtempSync(path.join(output.path, 'runtime-'));
    const { upstream, ours } = await upstreamAndOurs(suite, ['--runtime-dir', runtimeDir]);
    const play = async (d: Driver) => {
      await d.go('/app-link');
      await d.click('Join in the app');
      return d.click('After the link');
    };
    const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, site)), play(new Driver(ours.client, site))]);
    t.diagnostic(`upstream CLI: ${theirs.match(/Page Title: (.*)/)?.[1]}; ours: ${mine.match(/Page Title: (.*)/)?.[1]}`);
    assert.match(mine, /Page Title: clicked after the link/, 'ours: the click after the app link reaches the page');

    // The helper the browser runs in place of xdg-settings: it claims the app
    // schemes, and hands mailto (which Chromium opens without asking) and every
    // other question to the real xdg-settings further along PATH.
    const helper = path.join(runtimeDir, 'bin', 'xdg-settings');
    assert.equal(fs.statSync(helper).mode & 0o077, 0, 'only its owner can change what the browser runs');
    const realDir = fs.mkdtempSync(path.join(output.path, 'real-'));
    fs.writeFileSync(path.join(realDir, 'xdg-settings'), '#!/bin/sh\necho "real: $*"\n', { mode: 0o700 });
    const ask = (...args: string[]) => execFileSync(helper, args, { env: { PATH: `${path.dirname(helper)}:${realDir}:/usr/bin:/bin` }, encoding: 'utf8' }).trim();
    assert.equal(ask('check', 'default-url-scheme-handler', 'zoommtg', 'chromium.desktop'), 'yes');
    assert.equal(ask('check', 'default-url-scheme-handler', 'mailto', 'chromium.desktop'), 'real: check default-url-scheme-handler mailto chromium.desktop');
    assert.equal(ask('get', 'default-web-browser'), 'real: get default-web-browser');
  });
});
