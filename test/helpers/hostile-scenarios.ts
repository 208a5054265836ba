import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Driver } from './hostile-driver.ts';
import type { HostileSite } from './hostile-site.ts';

// The hostile corpus as scenarios a driver plays, shared by the side-by-side
// run (test/hostile-pages.test.ts) and the HTTP run (test/hostile-limits.test.ts).

// compare=false: the upstream's own result depends on timing there (after an
// accepted beforeunload its next navigate sometimes waits past 40 s), so only
// our bounds and the session's recovery are asserted. The upstream's answer
// to an out-of-memory page depends on when the renderer dies (during or after
// the navigate), and to a promise that never settles there is none.
// compare=N: only the first N calls are compared; the upstream's later ones vary between runs
// (after a renderer crash its next snapshot reads the crashed tab as an error in most runs, as
// ours does every time, and a blank page in some).
export type Scenario = [name: string, run: (d: Driver) => Promise<void>, compare?: boolean | number];

export const SCENARIOS: Scenario[] = [
  ['alert on load', async (d) => { await d.go('/alert-load'); await d.call('browser_handle_dialog', { accept: true }); }],
  ['confirm on load', async (d) => { await d.go('/confirm-load'); await d.call('browser_handle_dialog', { accept: false }); }],
  ['prompt on load', async (d) => { await d.go('/prompt-load'); await d.call('browser_handle_dialog', { accept: true, promptText: 'typed' }); }],
  ['alert on click', async (d) => { await d.go('/alert-click'); await d.click('Alert me'); await d.call('browser_handle_dialog', { accept: true }); }],
  ['confirm on click', async (d) => { await d.go('/confirm-click'); await d.click('Confirm me'); await d.call('browser_handle_dialog', { accept: true }); }],
  ['prompt on click', async (d) => { await d.go('/prompt-click'); await d.click('Prompt me'); await d.call('browser_handle_dialog', { accept: true, promptText: 'x' }); }],
  ['beforeunload on leaving', async (d) => {
    await d.go('/beforeunload');
    await d.call('browser_type', { target: await d.ref('Draft'), element: 'Draft', text: 'unsaved' });
    await d.go('/calm');
    await d.call('browser_handle_dialog', { accept: true });
  }, false],
  ['a dialog from a timer while a tool runs', async (d) => { await d.go('/timer-dialog'); await d.call('browser_wait_for', { time: 4 }); await d.call('browser_handle_dialog', { accept: true }); }],
  ['an HTML dialog the page closes by itself', async (d) => { await d.go('/dialog-closed-by-page'); await d.click('Open dialog'); }],
  // The click waits for a button that stays disabled, times out on both sides; the page is busy then, not stuck, and stays open.
  ['a page of long tasks: a click that times out', async (d) => {
    await d.go('/long-tasks');
    await d.click('Not yet');
    await d.call('browser_snapshot');
  }],
  ['an endless loop in a worker', async (d) => { await d.go('/worker-loop'); }],
  ['a page that never finishes loading', async (d) => { await d.go('/never-loads'); }],
  ['a document that never finishes arriving (tarpit)', async (d) => { await d.go('/tarpit'); await d.click('Still clickable'); }],
  ['HTTP authentication without credentials', async (d) => { await d.go('/auth'); }],
  ['debugger statements in a loop', async (d) => { await d.go('/debugger-loop'); await d.click('Go'); }],
  ['a redirect loop', async (d) => { await d.go('/redirect-loop'); }],
  // 25, not 50: on two cores 50 took the click past the 5 s action timeout on either side, at random.
  ['25 popups', async (d) => { await d.go('/popups'); await d.click('Open popups'); await d.call('browser_tabs', { action: 'select', index: 0 }); }],
  ['replaced console, Error, JSON, toString, defineProperty, Promise', async (d) => {
    await d.go('/hostile-globals');
    await d.click('Still clickable');
    await d.call('browser_evaluate', { function: '() => document.getElementById("p").textContent' });
  }],
  ['a page that closes itself', async (d) => { await d.go('/self-close'); await d.click('Close window'); }],
  ['a file chooser nobody answers', async (d) => { await d.go('/file-chooser'); await d.click('Upload'); await d.call('browser_file_upload', {}); }],
  ['deeply nested cross-origin frames', async (d) => { await d.go('/nested-frames'); }],
  ['a download storm', async (d) => { await d.go('/download-storm'); await d.click('Download all'); }],
  ['a page that allocates until its renderer is killed (OOM)', async (d) => { await d.go('/oom'); await d.call('browser_wait_for', { time: 3 }); await d.call('browser_snapshot'); }, false],
  ['a renderer crash', async (d) => { await d.go('/calm'); await d.call('browser_navigate', { url: 'chrome://crash' }); await d.call('browser_snapshot'); }, 2],
  ['a renderer that crashes while its page loads', async (d) => { await d.go('/crash-while-loading'); await d.call('browser_snapshot'); }],
  ['evaluate: a promise that never settles', async (d) => { await d.go('/calm'); await d.call('browser_evaluate', { function: '() => new Promise(() => {})' }); }, false],
  ['evaluate: a cyclic object', async (d) => { await d.go('/calm'); await d.call('browser_evaluate', { function: '() => { const a = {}; a.self = a; return a; }' }); }],
];

// Scenarios that load the machine (a renderer spinning or allocating for seconds, dozens of
// renderers at once): when several targets play the corpus at once, one target at a time plays
// these, so none of them races another's for the 2 cores (a click past its 5 s action timeout, a
// snapshot past its deadline before the out-of-memory kill).
const ALONE = new Set([
  'a page of long tasks: a click that times out',
  'an endless loop in a worker',
  '25 popups',
  'deeply nested cross-origin frames',
  'a download storm',
  'a page that allocates until its renderer is killed (OOM)',
]);

/** Plays scenario `name` through `fn`: a scenario in ALONE once every earlier one of them has finished, any other at once. */
type Turns = <T>(name: string, fn: () => Promise<T>) => Promise<T>;
const takingTurns = (): Turns => {
  let last = Promise.resolve();
  return async (name, fn) => {
    if (!ALONE.has(name)) return fn();
    const before = last;
    let done!: () => void;
    last = new Promise((resolve) => { done = resolve; });
    await before;
    try { return await fn(); } finally { done(); }
  };
};

async function runAll(client: Client, site: HostileSite, turns: Turns): Promise<Map<string, Driver>> {
  const out = new Map<string, Driver>();
  for (const [name, run] of SCENARIOS) {
    const d = new Driver(client, site);
    const play = async () => {
      await run(d);
      d.scenarioEnd = d.shapes.length;
      // The session is still usable afterwards (compared with nothing: the
      // upstream's first navigate after a redirect loop sometimes fails).
      await d.call('browser_navigate', { url: `${site.url}/calm` });
      return d.call('browser_snapshot');
    };
    const snap = await turns(name, play);
    assert.match(snap, /Calm/, `${name}: the session is not usable afterwards: ${snap}`);
    out.set(name, d);
  }
  return out;
}

/**
 * The corpus on several targets at once, each in its own session and in the same order (most of
 * a scenario is waiting on a deadline or a page, so three targets take little longer than one);
 * the scenarios in ALONE take turns. Each target's outcome is its own.
 */
export function runAllAtOnce(clients: Client[], site: HostileSite): Promise<PromiseSettledResult<Map<string, Driver>>[]> {
  const turns = takingTurns();
  return Promise.allSettled(clients.map((client) => runAll(client, site, turns)));
}

/** Plays each scenario through `play` (a session of its own each), `sessions` at a time; the scenarios in ALONE take turns. */
export async function playEachAtOnce(scenarios: Scenario[], sessions: number, play: (run: Scenario[1]) => Promise<Driver>): Promise<Driver[]> {
  const turns = takingTurns();
  const queue = [...scenarios];
  const played: Driver[] = [];
  await Promise.all(Array.from({ length: sessions }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, run] = next;
      played.push(await turns(name, () => play(run)));
    }
  }));
  return played;
}
