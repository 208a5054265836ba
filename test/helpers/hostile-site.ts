import http from 'node:http';
import type { AddressInfo } from 'node:net';

// Pages written to break automation, served from 127.0.0.1. Each is input a
// tool must survive: it returns in time, says what happened, and the session
// stays usable.
const html = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const button = (label: string, onclick: string) => `<button onclick="${onclick.replaceAll('"', '&quot;')}">${label}</button>`;

export const HOSTILE_PAGES: Record<string, string> = {
  '/calm': html('Calm page', '<h1>Calm</h1><p>nothing happens here</p>'),
  // A page that wraps its own addEventListener and getBoundingClientRect sees every caller in its world (main-world.test.ts).
  '/watched-world': html(
    'Watched world',
    `${button('Press', "document.title = 'pressed'")}<p id="seen"></p><script>const seen = []; const add = EventTarget.prototype.addEventListener; EventTarget.prototype.addEventListener = function (type, ...rest) { seen.push(type); return add.call(this, type, ...rest); }; const measure = Element.prototype.getBoundingClientRect; Element.prototype.getBoundingClientRect = function () { seen.push('getBoundingClientRect'); return measure.call(this); }; setInterval(() => (document.getElementById('seen').textContent = 'seen: ' + (seen.join(',') || 'nothing')), 10);</script>`,
  ),
  '/alert-load': html('Alert on load', '<script>alert("alert while loading")</script><p>after alert</p>'),
  '/confirm-load': html('Confirm on load', '<script>document.title = "answer " + confirm("confirm while loading")</script>'),
  '/prompt-load': html('Prompt on load', '<script>document.title = "answer " + prompt("prompt while loading", "x")</script>'),
  // The alert opens from the load handler: the load event does not end until it is answered.
  '/alert-onload': html('Alert from the load handler', `<p>loaded</p><script>addEventListener('load', () => { alert('alert from the load handler'); document.title = 'answered'; })</script>`),
  // A full-page screenshot of it keeps Chromium's GPU process busy for seconds after the call timed out; the page's own thread only waits.
  '/very-tall': html('Very tall', '<div style="height:150000px;background:linear-gradient(red,blue)">tall</div>'),
  '/alert-click': html('Alert on click', button('Alert me', "alert('alert from a click')")),
  '/confirm-click': html('Confirm on click', button('Confirm me', "document.title = 'answer ' + confirm('confirm from a click')")),
  '/prompt-click': html('Prompt on click', button('Prompt me', "document.title = 'answer ' + prompt('prompt from a click')")),
  '/beforeunload': html('Leave me', `<input aria-label="Draft" id="d"><script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'sure?'; })</script>`),
  // A game: a click on it locks the pointer; the page lists what it sees.
  '/pointer-lock': html(
    'Pointer lock',
    `<div role="button" aria-label="Play" style="width:320px;height:160px;background:#234" onclick="this.requestPointerLock()">Play</div>${button('Ping', "see('ping')")}<p id="seen">seen:</p>` +
      `<script>const seen = []; function see(what) { seen.push(what); document.getElementById('seen').textContent = 'seen: ' + seen.join(', '); }` +
      `document.addEventListener('pointerlockchange', () => see(document.pointerLockElement ? 'locked' : 'unlocked')); addEventListener('keydown', (e) => see('key ' + e.key));</script>`,
  ),
  // The same game in a frame: a lock held there takes the pointer over the whole page.
  '/pointer-lock-frame': html('Framed game', `${button('Top ping', "document.title = 'top ping'")}<iframe src="/pointer-lock" width="480" height="320"></iframe>`),
  // Console floods: 50,000 messages as the page loads (an unautomated Chromium takes seconds to log them), and 2,000 every 10 ms for good.
  '/console-burst': html('Console burst', "<h1>Burst</h1><script>for (let i = 0; i < 50000; i++) console.log('message ' + i)</script>"),
  '/console-stream': html('Console stream', "<h1>Stream</h1><script>setInterval(() => { for (let i = 0; i < 2000; i++) console.log('tick ' + i, { i }) }, 10)</script>"),
  '/app-link': html('App link', '<a href="zoommtg://join?confno=1">Join in the app</a> <a href="mailto:nobody@example.invalid">Mail us</a> ' + button('After the link', "document.title = 'clicked after the link'")),
  // A field whose handlers answer with alert(): on every key, on focus, on one letter.
  '/key-alert': html('Alert on keys', `<input aria-label="Name" onkeydown="alert('key ' + event.key)">` + button('Show the name', "document.title = 'name: ' + document.querySelector('input').value")),
  '/focus-alert': html('Alert on focus', `<input aria-label="Name" onfocus="alert('focused')">` + button('Show the name', "document.title = 'name: ' + document.querySelector('input').value")),
  '/letter-alert': html('Alert on a letter', `<input aria-label="Name" onkeydown="if (event.key === 'd') alert('the letter d')">` + button('Show the name', "document.title = 'name: ' + document.querySelector('input').value")),
  // A button that alerts as the pointer comes over it, and one at the top of a page whose middle band alerts the first time the pointer crosses it.
  '/hover-alert': html('Alert on hover', `<button style="position:absolute;left:300px;top:300px" onmouseover="alert('over the button')" onclick="document.title = 'clicked'">Hover alert</button>`),
  '/crossing-alert': html('Alert on the way', `<button style="position:absolute;left:20px;top:20px" onclick="document.title = 'clicked'">At the top</button><div style="position:absolute;left:0;top:200px;width:100%;height:300px;background:#eee" onmouseover="if (!window.crossed) { window.crossed = true; alert('crossed the band') }">band</div>`),
  // Below the fold of a page that alerts on every wheel event.
  '/wheel-alert': html('Alert on wheel', `<div style="height: 3000px" onwheel="alert('wheeled')">tall</div>` + button('Far below', "document.title = 'clicked far below'")),
  // Passkeys need a domain (open it on site.otherOrigin, localhost); each button fetches its challenge first, as sites do.
  '/passkey': html(
    'Passkey',
    `<p id="cma">conditional: unknown</p><script>PublicKeyCredential.isConditionalMediationAvailable().then((v) => { document.getElementById('cma').textContent = 'conditional: ' + v; })</script>` +
      button('Sign in with a passkey', "fetch('/calm').then(() => navigator.credentials.get({ publicKey: { challenge: new Uint8Array(16), timeout: 120000 } })).then(() => { document.title = 'signed in'; }, (e) => { document.title = 'passkey ' + e.name; })") +
      button('Register a passkey', "fetch('/calm').then(() => navigator.credentials.create({ publicKey: { challenge: new Uint8Array(16), rp: { name: 'Example' }, user: { id: new Uint8Array(8), name: 'ada', displayName: 'Ada' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }], timeout: 120000 } })).then(() => { document.title = 'registered'; }, (e) => { document.title = 'passkey ' + e.name; })") +
      button('After the passkey', "document.title = 'clicked after the passkey'"),
  ),
  // A request of the page's own that asks for HTTP authentication (/auth): Chromium's sign-in prompt, headless too.
  '/auth-request': html('Report', button('Load the report', "document.title = 'asking'; fetch('/auth').then((r) => { document.title = 'status ' + r.status; })") + button('After the prompt', "document.title += ' | after'")),
  '/screen-share': html('Screen share', button('Share your screen', "navigator.mediaDevices.getDisplayMedia().then(() => { document.title = 'sharing'; }, (e) => { document.title = 'share ' + e.name; })") + button('After the picker', "document.title += ' | after'")),
  // A page that puts its scroll back at the top 30 ms after it moves: a click below the fold must land in the moment between.
  '/scroll-locked': html('Scroll locked', `<p>top</p><div style="height:3000px">spacer</div>${button('Far below', "document.title = 'Far below clicked'")}<script>addEventListener('scroll', () => setTimeout(() => scrollTo(0, 0), 30)); addEventListener('wheel', () => { window.wheels = (window.wheels ?? 0) + 1; }, { passive: true });</script>`),
  // Lists a page changes as the select takes focus (recent choices first, options loaded on demand); window.changes lists every option committed.
  '/select-sorts-on-focus': html('Sorted on focus', `<select aria-label="Country" onfocus="if (!this.dataset.sorted) { this.dataset.sorted = 1; [...this.options].sort((a, b) => a.text.localeCompare(b.text)).forEach((o) => this.append(o)); }" onchange="window.changes.push(this.value)"><option>Chile</option><option>Austria</option><option>Egypt</option><option>Belgium</option><option>Denmark</option></select><script>window.changes = [];</script>`),
  // Options the opened list leaves out (hidden, display: none), which its arrow keys pass over.
  '/select-hidden-options': html('Hidden options', `<select aria-label="Plan" onchange="window.changes.push(this.value)"><option>Free</option><option hidden>Legacy</option><option style="display:none">Beta</option><option>Basic</option><option>Pro</option><option>Team</option></select><script>window.changes = [];</script>`),
  '/select-replaced-on-focus': html('Replaced on focus', `<select aria-label="Size" onfocus="if (!this.dataset.loaded) { this.dataset.loaded = 1; this.innerHTML = '<option>Small</option><option>Medium</option><option>Large</option>'; }" onchange="window.changes.push(this.value)"><option>Pick one</option><option>Huge</option></select><script>window.changes = [];</script>`),
  // Every pointer move costs the page 300 ms of its thread.
  // A framework that re-renders its button every 250 ms: each render a new element, at the same place, with the same name.
  '/rerendered': html('Re-rendered', `<div id="root"></div><script>let presses = 0; const render = () => { document.getElementById('root').innerHTML = '<button>Fleeting</button>'; document.querySelector('#root button').onclick = () => { document.title = 'pressed ' + (++presses); }; }; render(); setInterval(render, 250);</script>`),
  '/mousemove-trap': html('Heavy mousemove', `<p id="p">0 moves</p>${button('Trapped', "document.title = 'Trapped clicked'")}<script>let moves = 0; addEventListener('mousemove', () => { document.getElementById('p').textContent = ++moves + ' moves'; const end = performance.now() + 300; while (performance.now() < end); })</script>`),
  // Every key costs the page 300 ms of its thread.
  '/keydown-trap': html('Heavy keydown', `<input aria-label="Slow field" id="f"><p id="p">0 keys</p><script>let keys = 0; addEventListener('keydown', () => { document.getElementById('p').textContent = ++keys + ' keys'; const end = performance.now() + 300; while (performance.now() < end); })</script>`),
  // An exit-intent popup: the pointer leaving the page (a mouseout with nowhere to go) covers it with a modal.
  '/exit-intent': html(
    'Exit intent',
    `<div style="position:fixed;top:0;left:0;right:0;display:flex;justify-content:space-between">${button('Top left', "document.title += ' TL'")}${button('Top right', "document.title += ' TR'")}</div>` +
      `<div style="position:fixed;bottom:0;left:0;right:0;display:flex;justify-content:space-between">${button('Bottom left', "document.title += ' BL'")}${button('Bottom right', "document.title += ' BR'")}</div>` +
      `<div id="modal" style="display:none;position:fixed;inset:0;background:#fffd;z-index:9"><p>Wait! Before you go…</p></div>` +
      `<script>window.exits = 0; document.addEventListener('mouseout', (e) => { if (!e.relatedTarget) { exits++; document.getElementById('modal').style.display = 'block'; } });</script>`,
  ),
  // Fields that filter keys: digits only; no key at all; no select-all (its old text cannot go by keys).
  '/readonly-fields': html('Read-only fields', `<input aria-label="Guarded email" readonly onfocus="this.removeAttribute('readonly')"><input aria-label="Picked date" readonly onclick="document.title = 'calendar open'">`),
  '/code-boxes': html('One-time code', [1, 2, 3, 4, 5, 6].map((i) => `<input aria-label="Digit ${i}" maxlength="1" size="1" oninput="if (this.value && this.nextElementSibling) this.nextElementSibling.focus()">`).join('')),
  '/select-alert': html('Alert on change', `<select aria-label="Size" onchange="alert('size ' + this.value); document.title = 'size ' + this.value"><option>S</option><option>M</option><option>L</option></select>`),
  '/hold-to-drag': html(
    'Board',
    `<div role="button" aria-label="Card" style="position:absolute;left:30px;top:60px;width:90px;height:40px;background:#9f9">Card</div><div role="region" aria-label="Done" style="position:absolute;left:380px;top:260px;width:160px;height:120px;background:#eee">Done</div>
<script>
  // A sortable's hold-to-drag (dnd-kit's delay constraint): a drag starts once the press has been held 250 ms; a press that moves more than 5 px before is not one.
  const card = document.querySelector('[aria-label=Card]');
  let start = null, active = false, timer, moves = 0;
  card.addEventListener('pointerdown', (e) => { start = { x: e.clientX, y: e.clientY }; moves = 0; timer = setTimeout(() => (active = true), 250); });
  addEventListener('pointermove', (e) => {
    if (!start) return;
    if (active) moves++;
    else if (Math.hypot(e.clientX - start.x, e.clientY - start.y) > 5) { clearTimeout(timer); start = null; document.title = 'not a drag: moved before 250 ms'; }
  });
  addEventListener('pointerup', (e) => {
    clearTimeout(timer);
    if (active) { const t = document.querySelector('[aria-label=Done]').getBoundingClientRect(); document.title = (e.clientX > t.left && e.clientX < t.right && e.clientY > t.top && e.clientY < t.bottom ? 'moved to Done' : 'dropped elsewhere') + ' after ' + moves + ' moves'; }
    active = false; start = null;
  });
</script>`,
  ),
  // A card whose first press runs a long task (1.5 s) before the page takes it; it records presses and clicks, and a drop on Done.
  '/busy-press': html(
    'Busy press',
    `<div role="button" aria-label="Card" style="position:absolute;left:30px;top:60px;width:90px;height:40px;background:#9f9">Card</div><div role="region" aria-label="Done" style="position:absolute;left:380px;top:260px;width:160px;height:120px;background:#eee">Done</div>
<script>
  window.seen = [];
  const card = document.querySelector('[aria-label=Card]');
  let busy = true, held = false;
  card.addEventListener('pointerdown', () => { seen.push('down'); held = true; if (busy) { busy = false; const end = Date.now() + 1500; while (Date.now() < end); } });
  card.addEventListener('click', () => seen.push('click'));
  addEventListener('pointerup', (e) => {
    const t = document.querySelector('[aria-label=Done]').getBoundingClientRect();
    seen.push(held && e.clientX > t.left && e.clientX < t.right && e.clientY > t.top && e.clientY < t.bottom ? 'up on Done' : 'up elsewhere');
    held = false;
  });
</script>`,
  ),
  '/drag-alert': html(
    'Drag alert',
    `<div role="button" aria-label="Card" style="position:absolute;left:30px;top:60px;width:90px;height:40px;background:#9f9">Card</div><div role="region" aria-label="Done" style="position:absolute;left:380px;top:260px;width:160px;height:120px;background:#eee">Done</div><button style="position:absolute;left:30px;top:400px" onclick="presses.push('click')">Press</button>
<script>
  window.presses = [];
  let alerted = false;
  addEventListener('pointermove', (e) => { if (e.buttons && !alerted) { alerted = true; alert('dragging'); } });
  addEventListener('pointerdown', (e) => presses.push('down ' + e.buttons));
  addEventListener('pointerup', (e) => presses.push('up ' + e.buttons));
</script>`,
  ),
  '/key-filters': html('Key filters', `<input aria-label="Digits only" onkeydown="if (event.key.length === 1 && !/\\d/.test(event.key)) event.preventDefault()"><input aria-label="No keys" onkeydown="event.preventDefault()"><input aria-label="No select-all" value="old text" onkeydown="if (event.ctrlKey || event.metaKey) event.preventDefault()">`),
  // A number field that records what reached it (focus, pointer presses).
  '/number-field': html('Number field', `<input type="number" aria-label="Amount" onfocus="this.dataset.seen = (this.dataset.seen ?? '') + 'focus '" onpointerdown="this.dataset.seen = (this.dataset.seen ?? '') + 'press '">`),
  // A title of two million characters, past the default --max-result-chars.
  '/title-huge': html('x', `${button('Under a huge title', "document.title = 'Huge title clicked'")}<script>document.title = 'T'.repeat(2e6)</script>`),
  '/spin-frame': html('Spinning', `<p>frame text</p>${button('Frame button', "this.textContent = 'frame clicked'")}<script>setTimeout(() => { for (;;) {} }, 1500)</script>`),
  // Its popups are of the same site, so they share its renderer: while it computes (9 s, from a timer), they answer nothing either.
  '/compute-with-popups': html('Computes', button('Open popups', "window.open('/calm?popup=a'); window.open('/calm?popup=b')") + button('Compute', "setTimeout(() => { const t = Date.now(); while (Date.now() - t < 9000); document.getElementById('p').textContent = 'computed'; }, 100)") + '<p id="p">not yet</p>'),
  '/spin-tab': html('Spinning tab', `<p>popup text</p><script>setTimeout(() => { for (;;) {} }, 1500)</script>`),
  // Nesting 200,000 elements deep crashes the renderer while the page loads.
  '/crash-while-loading': html('Too deep', `<script>let e = document.body; for (let i = 0; i < 200000; i++) { const d = document.createElement('div'); e.appendChild(d); e = d; }</script>`),
  // Handlers that never return while the page is being left (beforeunload fires only after a user gesture).
  '/unload-spin': html('Endless unload', `<p>leave me</p><script>addEventListener('pagehide', () => { for (;;) {} })</script>`),
  '/beforeunload-spin': html('Endless beforeunload', `${button('Touch', "document.title = 'touched'")}<script>addEventListener('beforeunload', () => { for (;;) {} })</script>`),
  // No doctype: quirks mode, where a bare :hover matches links only.
  '/quirks': `<html><head><title>Quirks</title></head><body><h1>No doctype</h1>${button('Quirky button', "document.title += ' +'")}</body></html>`,
  // A button of 2×2 px: a click can land on one point only, the same in the next document loaded under the pointer.
  '/tiny-button': html('Tiny', `<button aria-label="Tiny" style="position:absolute;left:100px;top:100px;width:2px;height:2px;padding:0;border:0;min-width:0" onclick="document.title += ' +'"></button>`),
  '/print-click': html('Print on click', button('Print me', "print(); document.title = 'printed'")),
  '/print-timer': html('Print from a timer', `<p id="p">waiting</p><script>setTimeout(() => { print(); document.getElementById('p').textContent = 'printed from a timer'; }, 300)</script>`),
  '/print-loop': html('Print forever', button('Print forever', 'print()') + `<p id="p">no print yet</p><script>let n = 0; addEventListener('afterprint', () => { n++; document.getElementById('p').textContent = 'prints: ' + n; setTimeout(() => print(), 100); })</script>`),
  '/print-frame': html('Print in a frame', `<iframe title="inner" srcdoc="<button onclick='print(); parent.document.title = &quot;frame printed&quot;'>Print frame</button>"></iframe>`),
  // Late enough that the navigate (and its title) is done on a loaded machine, where three servers
  // play the corpus at once: at 300 ms the alert once came during ours' navigate, not the wait
  // (a race the upstream's result answers the same way, docs/performance.md 2026-12-07).
  '/timer-dialog': html('Timer dialog', `<script>setTimeout(() => alert('alert from a timer'), 2000)</script><p>waiting</p>`),
  '/dialog-closed-by-page': html('Self-closing dialog', button('Open dialog', "const d = document.getElementById('d'); d.showModal(); setTimeout(() => d.close(), 200)") + '<dialog id="d">modal html dialog</dialog>'),
  // A synchronous request to an address that never answers: the page's thread waits in the network stack, not in script.
  '/sync-request': html('Blocking request', button('Load synchronously', "const x = new XMLHttpRequest(); x.open('GET', '/hang', false); x.send(); document.title = 'loaded'")),
  '/busy-loop': html('Busy page', `<p>spinning soon</p><script>setTimeout(() => { for (;;) {} }, 200)</script>`),
  '/spin-on-click': html('Spin on click', button('Spin', 'for (;;) {}')),
  // A logged Error whose stack hook never returns. The upstream's page stops in its own console.log (the driver
  // formats the stack as it is logged); ours logs on, and the hook runs when a sync reads the console.
  '/endless-stack-hook': html('Endless stack hook', `${button('Touch', "document.title = 'touched'")}<script>setTimeout(() => { Error.prepareStackTrace = () => { for (;;) {} }; console.log(new Error('logged')); document.title = 'logged'; }, 200)</script>`),
  // A transparent layer over the whole page takes every click (a consent wall, a modal's backdrop).
  '/covered': html('Covered', `${button('Press', "document.title = 'pressed'")}<div style="position: fixed; inset: 0; z-index: 9" onclick="document.title = 'overlay'"></div>`),
  // Fields no pointer can reach: under a transparent overlay, behind an open modal dialog, in an inert section.
  '/unreachable-fields': html('Unreachable fields', `<input aria-label="Covered field"><input type="checkbox" aria-label="Covered box"><div style="position: fixed; inset: 0; z-index: 9"></div>`),
  '/modal-field': html('Behind a modal', `<input aria-label="Field behind the modal"><dialog id="d"><p>modal</p></dialog><script>document.getElementById('d').showModal()</script>`),
  '/inert-field': html('Inert field', `<section inert><input aria-label="Inert field"></section>`),
  // Heavy but alive: from 1 s after load its thread runs 2.5 s tasks with 20 ms between them (a page of long tasks on a slow machine).
  '/long-tasks': html('Long tasks', `<button disabled>Not yet</button><p>long tasks soon</p><script>setTimeout(function work() { const t = Date.now(); while (Date.now() - t < 2500); setTimeout(work, 20); }, 1000)</script>`),
  // The loop runs as the parser reaches it: the document never finishes loading (as a page of tens of MB still parsing).
  '/busy-while-loading': html('Loading forever', '<p>before the script</p><script>for (;;) {}</script><p>after the script</p>'),
  '/worker-loop': html('Busy worker', `<p>worker spins</p><script>new Worker(URL.createObjectURL(new Blob(['for(;;){}'], { type: 'text/javascript' })))</script>`),
  // A debugger statement every 20 ms: it pauses the page only where a debugger is attached.
  '/debugger-loop': html('Debugger statements', `${button('Go', "document.title = 'went'")}<script>setInterval(() => { debugger; }, 20); debugger;</script>`),
  // Buttons no click can land on: one that never stands still, one that stays disabled (pages-against-input.test.ts).
  '/never-still': html('Never still', `<style>@keyframes slide { from { left: 0 } to { left: 600px } } button { position: absolute; top: 80px; animation: slide 1s linear infinite }</style>${button('Catch me', "document.title = 'caught'")}`),
  '/disabled-button': html('Disabled button', button('Not yet', "document.title = 'pressed'").replace('<button', '<button disabled')),
  // A click that logs, then leaves for a server that never answers (silent-pages.test.ts).
  '/leave-on-click': html('Leave on click', button('Leave', "console.log('leaving by click'); location.href = '/hang'")),
  '/never-loads': html('Never loads', '<p>an image that never arrives</p><img src="/hang">'),
  '/redirect-loop': '',
  '/popups': html('Popups', button('Open popups', 'for (let i = 0; i < 25; i++) window.open("/calm?popup=" + i)')),
  '/popup-flood': html('Popup flood', button('Open 500 popups', 'for (let i = 0; i < 500; i++) window.open("about:blank#" + i)')),
  // Never yields and never stops: only stopping its script ends it (closing its page waits for the renderer).
  '/popup-flood-forever': html('Endless popup flood', button('Open popups forever', 'for (let i = 0; ; i++) { window.open("about:blank#" + i); const t = Date.now(); while (Date.now() - t < 5); }')),
  // Grows until the renderer is killed for running out of memory.
  '/oom': html('Out of memory', `<p>allocating</p><script>setTimeout(() => { const keep = []; for (;;) keep.push(new Array(1 << 20).fill(keep.length)); }, 200)</script>`),
  '/hostile-globals': html('Hostile globals', `<p id="p">globals replaced</p><script>
    console = { log() { throw new Error('no console'); } };
    window.Error = function () { throw new Error('no errors'); };
    window.JSON = { stringify() { throw 1; }, parse() { throw 1; } };
    Function.prototype.toString = function () { throw new TypeError('no toString'); };
    Object.defineProperty = function () { throw new TypeError('no defineProperty'); };
    window.Promise.prototype.then = function () { throw new Error('no then'); };
  </script>${button('Still clickable', "document.getElementById('p').textContent = 'clicked anyway'")}`),
  // Not stuck but kept busy: every millisecond a burst of history entries (Chromium throttles them and says so).
  '/history-flood': html('History flood', `<p>history flood</p><script>let n = 0; setInterval(() => { for (let i = 0; i < 50; i++) history.pushState({}, '', '/history-flood?n=' + (n++)); }, 1);</script>`),
  '/rootless': html('Rootless', `<p>gone soon</p><script>setTimeout(() => document.documentElement.remove(), 0);</script>`),
  '/refresh-loop': '<!doctype html><html><head><title>Refresh loop</title><meta http-equiv="refresh" content="0"></head><body><p>again</p></body></html>',
  // A page whose setTimeout never calls back: the upstream's settle wait after an action ran in the page.
  '/no-timers': html('No timers', `<p id="p">waiting</p><script>window.setTimeout = () => 0;</script>${button('Press', "document.getElementById('p').textContent = 'pressed'")}`),
  // A service worker that answers /sw-blackhole with a promise that never settles.
  '/sw': html('Service worker', `<p>service worker</p><script>navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => { document.title = 'Service worker ready'; })</script>`),
  // Opened from here, a same-site popup shares this page's renderer: its alert holds both.
  '/popup-alert': html('Popup with an alert', button('Open popup', "window.open('/alert-load')")),
  // A popup whose button calls its opener's alert(): the dialog shows on the tab behind, and holds the popup.
  '/opener-alert': html('Opens a ringer', button('Open popup', "window.open('/call-opener')")),
  '/call-opener': html('Rings its opener', button('Ring', "opener.alert('from the opener')")),
  // The same alert, 1.5 s after the click has answered.
  '/popup-alert-later': html('Popup with an alert', button('Open popup', "setTimeout(() => window.open('/alert-load'), 1500)")),
  '/self-close': html('Closes itself', button('Close window', 'window.close()')),
  '/file-chooser': html('File chooser', '<input type="file" id="f" aria-label="Upload">'),
  '/nested-frames': html('Nested frames', '<iframe src="/frame?depth=1" width="400" height="300"></iframe>'),
  '/big-dom': html('Big DOM', `<div id="root"></div><script>
    const root = document.getElementById('root'); const frag = document.createDocumentFragment();
    for (let i = 0; i < 200000; i++) { const s = document.createElement('span'); s.textContent = 'n' + i; frag.appendChild(s); }
    root.appendChild(frag);</script>`),
  '/huge-download': html('Huge download', '<a href="/endless.bin" download>Get the endless file</a>'),
  '/download-storm': html('Downloads', button('Download all', `for (let i = 0; i < 50; i++) { const a = document.createElement('a'); a.href = '/file?i=' + i; a.download = 'f' + i + '.txt'; document.body.appendChild(a); a.click(); }`)),
};

export interface HostileSite {
  url: string;
  /** A second origin (localhost) for cross-origin frames. */
  otherOrigin: string;
  close(): Promise<void>;
}

export async function startHostileSite(): Promise<HostileSite> {
  const hanging = new Set<http.ServerResponse>();
  let otherOrigin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    // A tarpit: the head and a button arrive, the rest of the document never does (one byte every 0.5 s).
    if (url.pathname === '/tarpit') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).write(`<!doctype html><html><head><title>Tarpit</title></head><body>${button('Still clickable', "document.title = 'clicked'")}`);
      const drip = setInterval(() => res.write(' '), 500);
      hanging.add(res);
      res.on('close', () => (clearInterval(drip), hanging.delete(res)));
      return;
    }
    // HTTP authentication nobody can answer: no credentials were given.
    if (url.pathname === '/auth') return void res.writeHead(401, { 'www-authenticate': 'Basic realm="hostile"', 'content-type': 'text/html' }).end(html('Denied', '<p>no credentials</p>'));
    if (url.pathname === '/redirect-loop') return void res.writeHead(302, { location: `/redirect-loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
    // An endless download: 64 KB chunks until the client goes away.
    if (url.pathname === '/endless.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="endless.bin"' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return pump();
    }
    // 50 MB of text in one document.
    if (url.pathname === '/big-text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      const line = `${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
      return void res.end(line.repeat(Math.ceil((50 * 2 ** 20) / line.length)));
    }
    if (url.pathname === '/sw.js')
      return void res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(`self.addEventListener('install', () => self.skipWaiting()); self.addEventListener('activate', (e) => e.waitUntil(clients.claim())); self.addEventListener('fetch', (e) => { if (e.request.url.includes('sw-blackhole')) e.respondWith(new Promise(() => {})); });`);
    if (url.pathname === '/file') return void res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': `attachment; filename="f${url.searchParams.get('i')}.txt"` }).end('file body\n');
    if (url.pathname === '/frame') {
      const depth = Number(url.searchParams.get('depth'));
      // Alternate origins (127.0.0.1 and localhost) so every level is cross-origin to its parent.
      const next = depth % 2 ? otherOrigin : `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const inner = depth < 8 ? `<iframe src="${next}/frame?depth=${depth + 1}" width="380" height="280"></iframe>` : '<p>deepest frame</p>';
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(html(`Frame ${depth}`, `<p>frame ${depth}</p>${inner}`));
    }
    // A cross-origin frame (its own renderer) whose script stops yielding 1.5 s after it loads.
    if (url.pathname === '/frame-spin') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Spinning frame', `<h1>Around the frame</h1>${button('Top button', "document.title = 'top clicked'")}<iframe src="${otherOrigin}/spin-frame"></iframe>`));
    // A cross-origin frame (its own renderer) whose document replaces itself as it loads, for good: a refresh loop in a frame.
    if (url.pathname === '/frame-churn') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Churning frame', `<h1>Around the frame</h1>${button('Top button', "document.title = 'top clicked'")}<iframe src="${otherOrigin}/churning"></iframe>`));
    if (url.pathname === '/churning') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Churning', `<p>gone soon</p><script>location.replace('/churning?' + Math.random())</script>`));
    // A popup of another origin (its own renderer) whose script stops yielding 1.5 s after it loads.
    if (url.pathname === '/popup-spin') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Opens a spinning popup', button('Open popup', `window.open('${otherOrigin}/spin-tab')`)));
    // A cross-origin frame that alerts as it loads: the page around it cannot finish loading until it is answered.
    if (url.pathname === '/frame-alert') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Framed alert', `<p>around the frame</p><iframe src="${otherOrigin}/alert-load"></iframe>`));
    // A popup from another origin (its own renderer) that alerts as it loads: the page that opened it goes on.
    if (url.pathname === '/popup-other-origin') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Opens a popup', button('Open popup', `window.open('${otherOrigin}/alert-load')`)));
    const page = HOSTILE_PAGES[url.pathname];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  otherOrigin = `http://localhost:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    otherOrigin,
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
