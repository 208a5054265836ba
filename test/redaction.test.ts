import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { startHostileSite, type HostileSite } from './helpers/hostile-site.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { normalise } from './helpers/side-by-side.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// --secrets and --redact-url-params: the upstream replaces those values in the
// text of the results it serializes (not in its error results). Ours adds
// notes of its own that name URLs (here: the request a timed-out navigation
// still waits for), which went out unredacted; now every result is redacted by
// the upstream's rules. The upstream CLI runs alongside with the same flags.

const TOKEN = 'tok3nVALUE9';
const SECRET = 'S3cretVALUE7';

describe('side by side with the upstream CLI: --secrets and --redact-url-params cover our notes too', { timeout: 120_000 }, () => {
  const dirs = useTempDir('spm-redact-');
  const servers: Connected[] = [];
  let site: HostileSite | undefined;
  let base: string;
  const results: Record<'upstream' | 'ours', string> = { upstream: '', ours: '' };

  before(async () => {
    // Its /hang takes the request and never answers: the navigation waits on it.
    site = await startHostileSite();
    base = site.url;
    const secrets = path.join(dirs.path, 'secrets.env');
    fs.writeFileSync(secrets, `MY_SECRET=${SECRET}\n`);
    const args = ['--redact-url-params', 'token', '--secrets', secrets, '--timeout-navigation', '3000'];
    for (const name of ['upstream', 'ours'] as const) {
      const dir = path.join(dirs.path, name);
      fs.mkdirSync(dir);
      const server = name === 'upstream' ? await connectUpstream(dir, args) : await connect(testEnv(dir), args);
      servers.push(server);
      await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${base}/frame?depth=8` } });
      const result = await server.client.callTool({ name: 'browser_navigate', arguments: { url: `${base}/hang?token=${TOKEN}&s=${SECRET}` } });
      results[name] = `error=${!!result.isError}\n${normalise(textOf(result), base, dir)}`;
    }
  });
  after(async () => {
    await closeAll(servers);
    await site?.close();
  });

  test('the navigate times out on both; the upstream sends its error unredacted, ours carries neither value', () => {
    for (const [name, text] of Object.entries(results)) assert.match(text, /^error=true\n[^]*Timeout T exceeded/, `${name}: ${text}`);
    // The upstream redacts the results it serializes, not its error results: the call log names the URL as it is.
    assert.match(results.upstream, new RegExp(TOKEN), 'the reference');
    assert.doesNotMatch(results.ours, new RegExp(`${TOKEN}|${SECRET}`), results.ours);
  });

  test("ours' own note names the request, redacted by the upstream's rules", () => {
    assert.match(results.ours, /navigating to "SITE\/hang\?token=<redacted>&s=<secret>MY_SECRET<\/secret>"/, results.ours);
    assert.match(results.ours, /Note: the page [^\n]* is navigating to SITE\/hang\?token=<redacted>&s=<secret>MY_SECRET<\/secret>, which has not answered yet/, results.ours);
  });
});
