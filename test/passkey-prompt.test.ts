import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Driver, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';

// A "Sign in with a passkey" button (navigator.credentials.get or create)
// makes Chromium on Linux open its security-key dialog in the tab, headless
// too, where nobody sees it; until the request times out (here 2 minutes) the
// tab takes no input, and every later click reports success and reaches
// nothing. Ours hands such a request to a dialog-less environment while input
// tools run (src/browser/passkey-guard.ts): it waits unanswered, and the page
// goes on. What the page reads outside input tools stays as on the upstream.

const CONDITIONAL = '() => PublicKeyCredential.isConditionalMediationAvailable()';
const resultOf = (text: string) => text.match(/### Result\n(.*)/)?.[1];

describe('passkey prompts', () => {
  const suite = useHostileSuite('spm-passkey-');

  test('after a passkey button, the next click reaches the page on ours (the upstream CLI alongside, in the same run)', { timeout: 150_000 }, async (t) => {
    const { site } = suite;
    const { upstream, ours } = await upstreamAndOurs(suite);
    const play = async (d: Driver) => {
      const seen: Record<string, string | undefined> = {};
      await d.call('browser_navigate', { url: `${site.otherOrigin}/passkey` });
      seen.onLoad = (await d.call('browser_snapshot')).match(/conditional: (\w+)/)?.[1];
      await d.click('Sign in with a passkey');
      seen.afterGet = (await d.click('After the passkey')).match(/Page Title: (.*)/)?.[1];
      seen.evaluated = resultOf(await d.call('browser_evaluate', { function: CONDITIONAL }));
      await d.call('browser_navigate', { url: `${site.otherOrigin}/passkey` });
      await d.click('Register a passkey');
      seen.afterCreate = (await d.click('After the passkey')).match(/Page Title: (.*)/)?.[1];
      return seen;
    };
    const [theirs, mine] = await Promise.all([play(new Driver(upstream.client, site)), play(new Driver(ours.client, site))]);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.equal(mine.afterGet, 'clicked after the passkey', 'ours: the click after a passkey sign-in reaches the page');
    assert.equal(mine.afterCreate, 'clicked after the passkey', 'ours: the click after a passkey registration reaches the page');
    // What a page or a client reads outside input tools: as on the upstream.
    assert.equal(theirs.onLoad, 'true');
    assert.equal(mine.onLoad, theirs.onLoad, 'conditional mediation on load');
    assert.equal(mine.evaluated, theirs.evaluated, 'conditional mediation read by browser_evaluate after a click');
  });
});
