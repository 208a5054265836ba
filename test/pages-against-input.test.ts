import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Driver, titleOf, upstreamAndOurs, useHostileSuite } from './helpers/hostile-driver.ts';
import { connect, testEnv, type Connected } from './helpers/server.ts';
import { connectUpstream } from './helpers/upstream-cli.ts';

// Pages that fight the input a tool needs: one that scrolls itself back to
// the top whenever it moves, one whose every pointer move or key costs 300 ms,
// one whose title alone is larger than a result may be. The upstream CLI plays
// each page first, in the same run, as the yardstick: where its click lands,
// ours must land too, with the page reading the same afterwards.

describe('pages that fight the input a tool needs (the upstream CLI alongside, in the same run)', () => {
  const suite = useHostileSuite('spm-against-input-');
  let both: { upstream: Connected; ours: Connected };
  before(async () => {
    both = await upstreamAndOurs(suite);
  });
  // The upstream plays the page first, then ours.
  const sideBySide = async <T>(play: (d: Driver) => Promise<T>) => {
    const theirs = await play(new Driver(both.upstream.client, suite.site));
    return { theirs, mine: await play(new Driver(both.ours.client, suite.site)) };
  };

  test('a click below the fold of a page that scrolls back to the top lands, as the upstream\'s does', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/scroll-locked');
      const clicked = await d.click('Far below');
      const ms = d.durations.at(-1);
      return { clicked, ms, title: await d.call('browser_evaluate', { function: '() => document.title' }), wheels: Number(/\d+/.exec(await d.call('browser_evaluate', { function: '() => String(window.wheels ?? 0)' }))?.[0]) };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`page title after the click, upstream CLI: ${titleOf(theirs.clicked)}; ours: ${titleOf(mine.clicked)}`);
    t.diagnostic(`the click took ${theirs.ms} ms (upstream CLI, ${theirs.wheels} wheel notches) and ${mine.ms} ms (ours, ${mine.wheels} notches)`);
    // Humanised input used to hold the button down at a point the page had scrolled away from (a timeout).
    assert.doesNotMatch(mine.clicked, /### Error/);
    assert.match(mine.title, /Far below clicked/);
    // The page throws each notch back: the wheel stops within a few notches and the script scrolls,
    // as the upstream's does (all 25 notches of the way and their settling took ~1.5 s more).
    assert.ok(mine.wheels > 0 && mine.wheels <= 12, `ours turned the wheel ${mine.wheels} times`);
    if (/Far below clicked/.test(theirs.title)) assert.equal(titleOf(mine.clicked), titleOf(theirs.clicked));
  });

  // Ours chooses an option as a person does: a click opens the list, arrow keys walk to the option,
  // Enter takes it. The keys were counted on the list read before the click: a page that sorted its
  // list as the select took focus got "Egypt" committed (its change event fired) before the plain
  // action set "Denmark"; one that replaced its list got an option nobody asked for. Hidden options
  // were counted as steps too: "Team" was committed before "Pro".
  test('a select whose page sorts or replaces its list as it takes focus, or hides options: no option but the asked one is committed', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver, path: string, label: string, value: string) => {
      await d.go(path);
      const chosen = await d.call('browser_select_option', { element: label, target: await d.ref(label), values: [value] });
      const state = await d.call('browser_evaluate', { function: '() => JSON.stringify({ value: document.querySelector("select").value, changes: window.changes })' });
      return { chosen, state: JSON.parse(JSON.parse(/### Result\s+(".*")/.exec(state)![1]!)) as { value: string; changes: string[] } };
    };
    const sorted = await sideBySide((d) => play(d, '/select-sorts-on-focus', 'Country', 'Denmark'));
    t.diagnostic(`sorted on focus: upstream CLI ${JSON.stringify(sorted.theirs.state)}, ours ${JSON.stringify(sorted.mine.state)}`);
    assert.deepEqual(sorted.theirs.state, { value: 'Denmark', changes: ['Denmark'] }, 'the upstream sets the option from script');
    assert.deepEqual(sorted.mine.state, sorted.theirs.state);
    assert.doesNotMatch(sorted.mine.chosen, /### Error/);
    const hidden = await sideBySide((d) => play(d, '/select-hidden-options', 'Plan', 'Pro'));
    t.diagnostic(`hidden options on the way: upstream CLI ${JSON.stringify(hidden.theirs.state)}, ours ${JSON.stringify(hidden.mine.state)}`);
    assert.deepEqual(hidden.theirs.state, { value: 'Pro', changes: ['Pro'] });
    assert.deepEqual(hidden.mine.state, hidden.theirs.state, 'the arrow keys pass over the options the list leaves out');
    // The asked option is gone once the list is replaced: the list is closed unchanged, and the plain action
    // times out as it does when the option is missing (the upstream, which never focuses the select, set it).
    const replaced = await sideBySide((d) => play(d, '/select-replaced-on-focus', 'Size', 'Huge'));
    t.diagnostic(`replaced on focus: upstream CLI ${JSON.stringify(replaced.theirs.state)}, ours ${JSON.stringify(replaced.mine.state)}`);
    assert.deepEqual(replaced.mine.state.changes, [], 'no option committed that was not asked for');
    assert.equal(replaced.mine.state.value, 'Small', 'the page\'s own first option stays selected');
  });

  // A click that cannot land times out after the action timeout (5 s) on both, and the session's
  // check of the page after a timeout must not make ours answer later: it watched every such page
  // 0.5 s for a document replacing itself (2026-12-04, 5 clicks each: 5593 vs 5049 ms, median).
  test('a button under a transparent overlay: the click times out as the upstream\'s does, naming the overlay, and answers when the upstream\'s does', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/covered');
      const clicks: { text: string; ms: number }[] = [];
      for (let i = 0; i < 3; i++) clicks.push({ text: await d.click('Press'), ms: d.durations.at(-1)! });
      return { clicks, title: await d.call('browser_evaluate', { function: '() => document.title' }) };
    };
    const { theirs, mine } = await sideBySide(play);
    const sum = (side: typeof mine) => side.clicks.reduce((total, click) => total + click.ms, 0);
    t.diagnostic(`the three clicks took (ms), upstream CLI: ${theirs.clicks.map((c) => c.ms).join(', ')}; ours: ${mine.clicks.map((c) => c.ms).join(', ')}`);
    for (const side of [theirs, mine]) {
      for (const { text } of side.clicks) assert.match(text, /### Error[\s\S]*Timeout 5000ms exceeded[\s\S]*<div onclick="document\.title = 'overlay'"[^>]*><\/div> intercepts pointer events/);
      assert.match(side.title, /"Covered"/);
    }
    assert.ok(sum(mine) <= sum(theirs) + 1200, `ours took ${sum(mine)} ms for the three clicks, the upstream ${sum(theirs)} ms`);
  });

  test('a button that never stands still, and a disabled one: the click fails at the upstream\'s timeout, with its error, not once the pointer\'s way is added to it', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      const clicks: { text: string; ms: number }[] = [];
      for (const [page, label] of [['/never-still', 'Catch me'], ['/disabled-button', 'Not yet']] as const) {
        await d.go(page);
        clicks.push({ text: await d.click(label), ms: d.durations.at(-1)! });
      }
      return clicks;
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`the clicks took (ms), upstream CLI: ${theirs.map((c) => c.ms).join(', ')}; ours: ${mine.map((c) => c.ms).join(', ')}`);
    for (const [i, why] of ['element is not stable', 'element is not enabled'].entries()) {
      for (const side of [theirs, mine]) assert.match(side[i]!.text, new RegExp(`### Error\\nTimeoutError: (browserBackend\\.callTool: )?Timeout 5000ms exceeded\\.[\\s\\S]*${why}`));
      // The pointer's way (0.3-1 s) used to come on top of the action's 5 s.
      assert.ok(mine[i]!.ms <= theirs[i]!.ms + 400, `${why}: ours answered in ${mine[i]!.ms} ms, the upstream in ${theirs[i]!.ms} ms`);
    }
  });

  test('with a short --timeout-action (1500 ms) on both, a click on a disabled button fails at that timeout too, with its error', { timeout: 120_000 }, async (t) => {
    const args = ['--timeout-action=1500'];
    const [upstream, ours] = await Promise.all([connectUpstream(`${suite.output.path}/upstream-short`, args), connect(testEnv(`${suite.output.path}/ours-short`), args)]);
    suite.servers.push(upstream, ours);
    const play = async (server: Connected) => {
      const d = new Driver(server.client, suite.site);
      await d.go('/disabled-button');
      return { text: await d.click('Not yet'), ms: d.durations.at(-1)! };
    };
    const theirs = await play(upstream);
    const mine = await play(ours);
    t.diagnostic(`the click took ${theirs.ms} ms on the upstream CLI, ${mine.ms} ms on ours`);
    for (const side of [theirs, mine]) assert.match(side.text, /### Error\nTimeoutError: (browserBackend\.callTool: )?Timeout 1500ms exceeded\.[\s\S]*element is not enabled/);
    // A whole second was left to the action after the pointer's way: 2140 against 1676 ms.
    assert.ok(mine.ms <= theirs.ms + 400, `ours answered in ${mine.ms} ms, the upstream in ${theirs.ms} ms`);
  });

  test('a page that stalls on every pointer move still gets its click, as from the upstream', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/mousemove-trap');
      const clicked = await d.click('Trapped');
      const moves = await d.call('browser_evaluate', { function: '() => document.getElementById("p").textContent' });
      return { clicked, moves: moves.match(/(\d+) moves/)?.[1], ms: d.durations.at(-2) };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`moves the page took and the click's time, upstream CLI: ${theirs.moves}, ${theirs.ms} ms; ours: ${mine.moves}, ${mine.ms} ms`);
    assert.equal(titleOf(theirs.clicked), 'Trapped clicked');
    assert.equal(titleOf(mine.clicked), titleOf(theirs.clicked));
  });

  // Typing starts with a click on the field, ticking a box with a click on it; where no click can
  // reach, Playwright's own action ran only after that click had waited out its 1 s (2026-12-05: a
  // covered field filled at 1546 vs 537 ms, an inert one and a covered box timed out at ~6050 vs
  // ~5020 ms). The upstream's action runs at once.
  test('fields no pointer can reach (under an overlay, behind a modal dialog, inert): browser_type and a ticked box give the upstream\'s result, when the upstream\'s comes', { timeout: 150_000 }, async (t) => {
    const type = (label: string) => async (d: Driver) => d.call('browser_type', { target: await d.ref(label), element: label, text: 'hello' });
    const cases = [
      ['/unreachable-fields', type('Covered field')],
      ['/unreachable-fields', async (d: Driver) => d.call('browser_fill_form', { fields: [{ name: 'Covered box', type: 'checkbox', target: await d.ref('Covered box'), value: 'true' }] })],
      ['/modal-field', type('Field behind the modal')],
      ['/inert-field', type('Inert field')],
    ] as const;
    const play = async (d: Driver) => {
      const done: { text: string; ms: number; value: string }[] = [];
      for (const [path, act] of cases) {
        await d.go(path);
        const text = await act(d);
        const ms = d.durations.at(-1)!;
        const value = await d.call('browser_evaluate', { function: '() => [...document.querySelectorAll("input")].map((i) => i.value + (i.checked ? " checked" : "")).join()' });
        done.push({ text: /### Error/.test(text) ? text.split('\n').slice(0, 2).join(' ') : 'done', ms, value });
      }
      return done;
    };
    const { theirs, mine } = await sideBySide(play);
    const sum = (side: typeof mine) => side.reduce((total, call) => total + call.ms, 0);
    t.diagnostic(`the calls took (ms), upstream CLI: ${theirs.map((c) => c.ms).join(', ')}; ours: ${mine.map((c) => c.ms).join(', ')}`);
    assert.equal(mine[0]!.text, 'done');
    assert.match(mine[0]!.value, /"hello,on"/);
    for (const timedOut of [mine[1]!, mine[3]!]) assert.match(timedOut.text, /Timeout 5000ms exceeded/);
    assert.deepEqual(mine.map(({ text, value }) => [text, value]), theirs.map(({ text, value }) => [text, value]));
    assert.ok(sum(mine) <= sum(theirs) + 1000, `ours took ${sum(mine)} ms for the four calls, the upstream ${sum(theirs)} ms`);
  });

  test('a page that stalls on every key gets the rest of a filled text at once, the value the upstream\'s fill gives', { timeout: 120_000 }, async (t) => {
    const text = 'a text of forty characters, to be typed.';
    const play = async (d: Driver) => {
      await d.go('/keydown-trap');
      await d.call('browser_type', { target: await d.ref('Slow field'), element: 'Slow field', text });
      const read = await d.call('browser_evaluate', { function: '() => JSON.stringify([document.getElementById("f").value, document.getElementById("p").textContent])' });
      return { read: JSON.parse(JSON.parse(read.match(/### Result\n(.*)/)![1]!)) as [string, string], ms: d.durations.at(-2) };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`keys the page took and the call's time, upstream CLI: ${theirs.read[1]}, ${theirs.ms} ms; ours: ${mine.read[1]}, ${mine.ms} ms`);
    assert.equal(theirs.read[0], text);
    assert.equal(mine.read[0], theirs.read[0]);
    // Typed key by key at first (a person's keys), then, the page taking 300 ms over each, the rest at once.
    const keys = Number(mine.read[1].split(' ')[0]);
    assert.ok(keys >= 3 && keys < text.length, mine.read[1]);
  });

  test('an exit-intent popup (a modal when the pointer leaves the page) never opens as clicks go from corner to corner, on ours as on the upstream', { timeout: 150_000 }, async (t) => {
    const corners = ['Top left', 'Bottom right', 'Top right', 'Bottom left', 'Top left', 'Top right', 'Bottom left', 'Bottom right'];
    const play = async (d: Driver) => {
      await d.go('/exit-intent');
      for (const corner of corners) await d.click(corner);
      const read = await d.call('browser_evaluate', { function: '() => JSON.stringify([document.title, exits])' });
      return JSON.parse(JSON.parse(read.match(/### Result\n(.*)/)![1]!)) as [string, number];
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`title and exits, upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    const expected = `Exit intent TL BR TR BL TL TR BL BR`;
    assert.deepEqual(theirs, [expected, 0]);
    // The pointer's curved way used to bend out of the viewport on the way to an element near its edge.
    assert.deepEqual(mine, [expected, 0]);
  });

  test('fields that filter keys: typed, a digits-only field holds what it let through, as from a person (the upstream\'s fill sets every character); one that takes no key, or refuses select-all, gets the whole text on both', { timeout: 120_000 }, async (t) => {
    const fields = ['Digits only', 'No keys', 'No select-all'];
    const play = async (d: Driver) => {
      await d.go('/key-filters');
      for (const field of fields) await d.call('browser_type', { target: await d.ref(field), element: field, text: 'ab12cd34' });
      const read = await d.call('browser_evaluate', { function: '() => JSON.stringify([...document.querySelectorAll("input")].map((i) => i.value))' });
      return JSON.parse(JSON.parse(read.match(/### Result\n(.*)/)![1]!)) as string[];
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`values, upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.deepEqual(theirs, ['ab12cd34', 'ab12cd34', 'ab12cd34']);
    assert.deepEqual(mine, ['1234', 'ab12cd34', 'ab12cd34']);
  });

  test('a text that is no number, typed into a number field: the upstream\'s error at once, the field untouched on both; a number is typed', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/number-field');
      const refused = await d.call('browser_type', { target: await d.ref('Amount'), element: 'Amount', text: 'twelve' });
      const seen = await d.call('browser_evaluate', { function: '() => document.querySelector("input").dataset.seen ?? "nothing"' });
      await d.call('browser_type', { target: await d.ref('Amount'), element: 'Amount', text: '12.5' });
      const value = await d.call('browser_evaluate', { function: '() => document.querySelector("input").value' });
      return { refused: /### Error\n(.*)/.exec(refused)?.[1], seen: /### Result\n(.*)/.exec(seen)?.[1], value: /### Result\n(.*)/.exec(value)?.[1] };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.match(theirs.refused ?? '', /Cannot type text into input\[type=number\]/);
    assert.deepEqual({ ...mine, value: undefined }, { ...theirs, value: undefined });
    assert.equal(theirs.seen, '"nothing"');
    assert.equal(theirs.value, '"12.5"');
    assert.equal(mine.value, '"12.5"');
  });

  test('a read-only field its page makes editable as it takes the focus (a guard against autofill) is typed in, as by a person, where the upstream\'s fill times out; one that stays read-only (a date picker) times out on both, with the upstream\'s error', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/readonly-fields');
      const guarded = await d.call('browser_type', { target: await d.ref('Guarded email'), element: 'Guarded email', text: 'me@example.com' });
      const picked = await d.call('browser_type', { target: await d.ref('Picked date'), element: 'Picked date', text: '2026-01-01' });
      const read = await d.call('browser_evaluate', { function: '() => JSON.stringify([...document.querySelectorAll("input")].map((i) => i.value))' });
      const error = (text: string) => /### Error\n(.*)/.exec(text)?.[1];
      return { guarded: error(guarded), picked: error(picked), values: JSON.parse(JSON.parse(read.match(/### Result\n(.*)/)![1]!)) as string[] };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.match(theirs.guarded ?? '', /Timeout \d+ms exceeded/);
    assert.match(theirs.picked ?? '', /Timeout \d+ms exceeded/);
    assert.deepEqual(theirs.values, ['', '']);
    assert.equal(mine.guarded, undefined);
    assert.equal(mine.picked, theirs.picked);
    assert.deepEqual(mine.values, ['me@example.com', '']);
  });

  test('a one-time code in six one-character boxes that move the focus on: typed into the first, ours leaves a digit in each, as a person\'s typing does; the upstream\'s fill leaves the first digit only', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/code-boxes');
      const typed = await d.call('browser_type', { target: await d.ref('Digit 1'), element: 'Digit 1', text: '123456' });
      const read = await d.call('browser_evaluate', { function: '() => JSON.stringify([...document.querySelectorAll("input")].map((i) => i.value))' });
      return { error: /### Error/.test(typed), values: JSON.parse(JSON.parse(read.match(/### Result\n(.*)/)![1]!)) as string[] };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.deepEqual(theirs, { error: false, values: ['1', '', '', '', '', ''] });
    assert.deepEqual(mine, { error: false, values: ['1', '2', '3', '4', '5', '6'] });
  });

  test('a sortable that starts a drag only once the press is held (250 ms, dnd-kit\'s delay): ours moves the card along a way of many moves, as a hand does; the upstream\'s drag, pressed and moved in the same instant, is not one', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/hold-to-drag');
      const dragged = await d.call('browser_drag', { startElement: 'Card', startTarget: await d.ref('Card'), endElement: 'Done', endTarget: await d.ref('Done') });
      return { error: /### Error/.test(dragged), title: titleOf(dragged) };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.deepEqual(theirs, { error: false, title: 'not a drag: moved before 250 ms' });
    assert.equal(mine.error, false);
    const moves = Number(/^moved to Done after (\d+) moves$/.exec(mine.title ?? '')?.[1]);
    assert.ok(moves >= 8, `ours: ${mine.title}`);
  });

  test('a drag whose card takes its press only after a long task (1.5 s in its pointerdown handler) is still a drag: pressed once, let go on the target, no click on the card (the upstream CLI alongside)', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/busy-press');
      const dragged = await d.call('browser_drag', { startElement: 'Card', startTarget: await d.ref('Card'), endElement: 'Done', endTarget: await d.ref('Done') });
      const read = await d.call('browser_evaluate', { function: '() => seen.join(", ")' });
      return { error: /### Error/.test(dragged), seen: /### Result\n"(.*)"/.exec(read)?.[1] };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.deepEqual(theirs, { error: false, seen: 'down, up on Done' });
    assert.deepEqual(mine, theirs);
  });

  test('a drag whose page alerts at the first move with the button down: the call answers with the dialog, and once it is answered the page gets its button up and the next click lands, as after the upstream\'s drag', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/drag-alert');
      const dragged = await d.call('browser_drag', { startElement: 'Card', startTarget: await d.ref('Card'), endElement: 'Done', endTarget: await d.ref('Done') });
      const dialog = /\["alert" dialog with message "dragging"\]/.test(dragged);
      await d.call('browser_handle_dialog', { accept: true });
      await d.click('Press');
      const read = await d.call('browser_evaluate', { function: '() => presses.join(", ")' });
      return { dialog, presses: /### Result\n"(.*)"/.exec(read)?.[1] };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${JSON.stringify(theirs)}; ours: ${JSON.stringify(mine)}`);
    assert.deepEqual(theirs, { dialog: true, presses: 'down 1, up 0, down 1, up 0, click' });
    assert.deepEqual(mine, theirs);
  });

  test('a button its page re-renders every 250 ms is pressed, where the ref\'s own element went during the pointer\'s way (the upstream CLI alongside)', { timeout: 180_000 }, async (t) => {
    const play = async (d: Driver) => {
      await d.go('/rerendered');
      const outcomes: string[] = [];
      // Ten tries: each lands or not by where the page's 250 ms cycle is at the press, on both sides (6 tries: ours 0 once in a loaded CI run, the upstream's 1 to 4).
      for (let i = 0; i < 10; i++) {
        const clicked = await d.click('Fleeting');
        outcomes.push(/### Error/.test(clicked) ? (/Timeout/.test(clicked) ? 'timeout' : 'ref gone') : 'pressed');
      }
      const presses = await d.call('browser_evaluate', { function: '() => document.title' });
      return { outcomes, presses: Number(presses.match(/pressed (\d+)/)?.[1] ?? 0) };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`upstream CLI: ${theirs.outcomes.join(', ')} (${theirs.presses} presses); ours: ${mine.outcomes.join(', ')} (${mine.presses} presses)`);
    // The upstream clicks in ~50 ms and mostly lands; ours moved the pointer for half a second and every press waited for the ref's old element until it timed out (0 of 6, every run).
    assert.ok(mine.presses >= 2, `ours pressed ${mine.presses} of 10: ${mine.outcomes.join(', ')}`);
  });

  test('a title longer than --max-result-chars is shortened, so the snapshot, its refs and the click still come through', { timeout: 120_000 }, async (t) => {
    const play = async (d: Driver) => {
      const nav = await d.go('/title-huge');
      const clicked = await d.click('Under a huge title');
      return { nav, clicked };
    };
    const { theirs, mine } = await sideBySide(play);
    t.diagnostic(`navigate result, upstream CLI: ${theirs.nav.length} characters; ours: ${mine.nav.length}`);
    assert.equal(titleOf(theirs.clicked), 'Huge title clicked');
    assert.equal(titleOf(mine.clicked), titleOf(theirs.clicked));
    // Ours keeps within the cap (1,000,000 by default, and the note), saying what it cut.
    assert.ok(mine.nav.length < 1_001_000, `${mine.nav.length} characters`);
    assert.match(mine.nav, /^- Page Title: T+… \[\d+ more characters of this line cut\]$/m);
    assert.match(mine.nav, /Cut: \d+ more characters of this result were not sent \(--max-result-chars 1000000\)/);
  });
});
