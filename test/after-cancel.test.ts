import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// A call the client cancels gets no answer; ours then checks the pages in the
// background and gives what it found to the next call (session/hang-watch.ts).
// What it found may have ended by the time that call does: the navigation it
// waited for was answered, the dialog it found was answered by that very call.
// The next call must then read as the upstream's does, with no note; a note
// still true when it ends (a server that never answers) is kept. And the
// upstream fills a field at once where ours types like a person: a cancelled
// call's rest goes in at once, not key by key into the field the client's
// next call clicks.

const SLOW_MS = 3000;
const html = (title: string, body: string) => `<!doctype html><title>${title}</title>${body}`;

function startSite(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((request, response) => {
    const send = (body: string) => response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (request.url === '/slow') setTimeout(() => send(html('Slow', '<p>slow page arrived</p>')), SLOW_MS);
    else if (request.url === '/never') request.on('close', () => response.destroy());
    else if (request.url === '/two-fields') send(html('Two fields', '<input aria-label="First"><input aria-label="Second">'));
    else if (request.url === '/timer-alert') send(html('Timer alert', '<p>alert soon</p><script>setTimeout(() => alert("from a timer"), 1000)</script>'));
    else send(html('Calm', '<p>calm page</p>'));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })));
}

/** Sends a call and cancels it after `ms`, as a client's stop button does; true when it had not ended by then. */
async function cancelled(server: Connected, name: string, args: Record<string, unknown>, ms: number): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('cancelled by the test'), ms);
  try {
    await server.client.callTool({ name, arguments: args }, undefined, { signal: controller.signal });
    return false;
  } catch (error) {
    assert.match(String(error), /cancelled by the test/);
    return true;
  } finally {
    clearTimeout(timer);
  }
}

const call = async (server: Connected, name: string, args: Record<string, unknown> = {}) => textOf(await server.client.callTool({ name, arguments: args }));

describe('after a cancelled call: the next result says what is still so, as the upstream does', () => {
  const dirs = useTempDir('spm-after-cancel-');
  let site: { url: string; close(): void };
  let upstream: Connected;
  let ours: Connected;
  before(async () => {
    site = await startSite();
    [upstream, ours] = await Promise.all([connectUpstream(`${dirs.path}/upstream`), connect(testEnv(`${dirs.path}/ours`))]);
  });
  after(async () => {
    await closeAll([upstream, ours].filter(Boolean));
    site?.close();
  });

  async function both<T>(play: (server: Connected) => Promise<T>): Promise<{ upstream: T; ours: T }> {
    const [a, b] = await Promise.all([play(upstream), play(ours)]);
    return { upstream: a, ours: b };
  }

  test('a navigation cancelled before its server answered: the next snapshot, taken once it has, carries no note', { timeout: 60_000 }, async () => {
    const read = await both(async (server) => {
      await call(server, 'browser_navigate', { url: `${site.url}/` });
      assert.ok(await cancelled(server, 'browser_navigate', { url: `${site.url}/slow` }, 1000));
      return call(server, 'browser_snapshot');
    });
    assert.match(read.upstream, /slow page arrived/);
    assert.equal(read.ours, read.upstream);
  });

  test('a dialog open when a call was cancelled: browser_handle_dialog answers it, and its result carries no note', { timeout: 60_000 }, async () => {
    const read = await both(async (server) => {
      await call(server, 'browser_navigate', { url: `${site.url}/timer-alert` });
      assert.ok(await cancelled(server, 'browser_wait_for', { time: 10 }, 2000));
      const answered = await call(server, 'browser_handle_dialog', { accept: true });
      return { answered, after: await call(server, 'browser_snapshot') };
    });
    // The upstream's answer adds the page's header when its navigate's result had named the dialog
    // (a timing of its own: the first navigate of a session, on a slow start): the rest reads the same.
    const withoutHeader = (text: string) => text.replace(/^### Page\n(- .*\n?)*/m, '').trim();
    assert.equal(withoutHeader(read.ours.answered), withoutHeader(read.upstream.answered));
    assert.doesNotMatch(read.ours.answered, /Note:/);
    assert.match(read.ours.after, /alert soon/);
    assert.equal(read.ours.after, read.upstream.after);
  });

  test('typing cancelled part way, then typing into another field: each field holds its own text', { timeout: 60_000 }, async () => {
    const first = 'the quick brown fox jumps over the lazy dog, twice over';
    const read = await both(async (server) => {
      await call(server, 'browser_navigate', { url: `${site.url}/two-fields` });
      const snapshot = await call(server, 'browser_snapshot');
      const ref = (name: string) => snapshot.match(new RegExp(`textbox "${name}" \\[ref=(\\w+)\\]`))![1]!;
      // The upstream's fill is done by then; ours is cancelled while it types.
      const stopped = await cancelled(server, 'browser_type', { element: 'First', target: ref('First'), text: first }, 800);
      if (server === ours) assert.ok(stopped, 'the humanised typing was still under way');
      await call(server, 'browser_type', { element: 'Second', target: ref('Second'), text: 'bee' });
      // What a cancelled call still does ends on its own: the values once nothing changes for a second.
      const values = () => call(server, 'browser_evaluate', { function: "() => [...document.querySelectorAll('input')].map((i) => i.value)" });
      for (let last = await values(); ; ) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const now = await values();
        if (now === last) return now;
        last = now;
      }
    });
    assert.match(read.upstream, /"the quick brown fox jumps over the lazy dog, twice over",\s*"bee"/);
    assert.equal(read.ours, read.upstream);
  });

  test('a navigation whose server never answers: the next call still says what the page waits for', { timeout: 60_000 }, async () => {
    await call(ours, 'browser_navigate', { url: `${site.url}/` });
    assert.ok(await cancelled(ours, 'browser_navigate', { url: `${site.url}/never` }, 1000));
    const tabs = await call(ours, 'browser_tabs', { action: 'list' });
    assert.match(tabs, /Note: the page \S+ is navigating to \S+\/never, which has not answered yet/);
    // Navigating elsewhere continues, as the note says.
    assert.match(await call(ours, 'browser_navigate', { url: `${site.url}/` }), /Page Title: Calm/);
  });
});
