import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { useTempDir } from './helpers/fixtures.ts';
import { startDisplay, type Display } from './helpers/display.ts';
import { closeAll, connect, testEnv, textOf, type Connected } from './helpers/server.ts';
import { CHROMIUM, connectUpstream } from './helpers/upstream-cli.ts';

// Input as the page sees it, held against an unautomated Chromium that gets
// real X input (xdotool on a virtual display): the same page, the same
// actions. What no mouse or keyboard produces, and Playwright's actions did:
// a pointerdown with no mousedown (the hit-target check of a trial click,
// which presses the element's centre with the page's events cancelled), a
// capital letter whose keydown has no Shift, a pointer between pixels at a
// device pixel ratio of 1 (Playwright clicks an element's exact centre), a
// field focused by script (focus events without sourceCapabilities) before
// a text goes in, and a button or key let up in the millisecond it went down.
// The upstream CLI runs the same calls in the same run.

const PAGE = `<!doctype html><title>input</title><body style="margin:0;height:3000px">
<button id="far" style="position:absolute;left:641px;top:1500px;width:101px;height:41px">Far</button>
<div style="position:absolute;left:301px;top:203px">
<button id="go" style="width:121px;height:41px">Go</button><br><br>
<input id="name" aria-label="Name" value="old" style="width:181px;height:23px"><br><br>
<input id="note" aria-label="Note" value="x" style="width:181px;height:23px"><br><br>
<input id="agree" type="checkbox" aria-label="Agree" style="width:17px;height:17px">
</div>
<script>
let events = [];
const record = (e) => events.push({ type: e.type, target: e.target.id || e.target.nodeName, t: e.timeStamp, x: e.clientX, y: e.clientY, sx: e.screenX, sy: e.screenY,
  key: e.key, shift: e.shiftKey, caps: e.getModifierState ? e.getModifierState('CapsLock') : undefined, fromDevice: e.sourceCapabilities === undefined ? undefined : e.sourceCapabilities !== null });
for (const type of ['pointerdown', 'pointerup', 'pointermove', 'mousedown', 'mouseup', 'mousemove', 'click', 'focus', 'keydown', 'keyup', 'wheel', 'scroll']) addEventListener(type, record, { capture: true, passive: true });
const rect = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
const post = () => fetch('/events', { method: 'POST', body: JSON.stringify({ events: events.splice(0), layout: { go: rect('go'), name: rect('name'), note: rect('note'), far: rect('far'), agree: rect('agree'), ratio: devicePixelRatio }, values: [document.getElementById('name').value, document.getElementById('note').value, document.getElementById('agree').checked] }) });
post();
setInterval(() => events.length && post(), 100);
</script>`;

interface Seen {
  type: string;
  target: string;
  t: number;
  x?: number;
  y?: number;
  sx?: number;
  sy?: number;
  key?: string;
  shift?: boolean;
  caps?: boolean;
  fromDevice?: boolean;
}
interface Report {
  events: Seen[];
  layout: { go: [number, number]; name: [number, number]; note: [number, number]; far: [number, number]; agree: [number, number]; ratio: number };
  values: [string, string, boolean];
}

let display: Display;
let server: http.Server;
let url: string;
let reports: Report[] = [];
const servers: Connected[] = [];
const dirs = useTempDir('spm-input-');

before(async () => {
  display = await startDisplay('1600x1000x24');
  server = http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => (reports.push(JSON.parse(body) as Report), res.end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
after(async () => {
  await closeAll(servers);
  server?.close();
  display?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, read: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
    const value = read();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** All that the page reported since the last call. */
async function collect(): Promise<{ events: Seen[]; values: [string, string, boolean] }> {
  await sleep(600);
  const taken = reports;
  reports = [];
  return { events: taken.flatMap((r) => r.events), values: taken.at(-1)!.values };
}

/** The actions through MCP tools: click the button, type into a field that holds text, type slowly into another (at its start, as Playwright types), press Tab, tick a checkbox (fill_form), click a button below the fold. */
async function driveByTools(connected: Connected) {
  servers.push(connected);
  const call = async (name: string, args: Record<string, unknown> = {}) => textOf(await connected.client.callTool({ name, arguments: args }));
  await call('browser_navigate', { url });
  const snap = await call('browser_snapshot');
  const ref = (pattern: string) => snap.match(new RegExp(`${pattern} \\[ref=([a-z0-9]+)\\]`))![1]!;
  await until('the page', () => reports.at(0));
  reports = [];
  await call('browser_click', { target: ref('button "Go"'), element: 'Go' });
  await call('browser_type', { target: ref('textbox "Name"'), element: 'Name', text: 'Hi There' });
  await call('browser_type', { target: ref('textbox "Note"'), element: 'Note', text: 'Ok', slowly: true });
  await call('browser_press_key', { key: 'Tab' });
  await call('browser_fill_form', { fields: [{ name: 'Agree', type: 'checkbox', target: ref('checkbox "Agree"'), value: 'true' }] });
  await call('browser_click', { target: ref('button "Far"'), element: 'Far' });
  return collect();
}

/** The same actions by X input into a Chromium nobody drives. */
async function driveByHand() {
  const profile = fs.mkdtempSync(path.join(dirs.path, 'control-'));
  const env = { ...process.env, DISPLAY: display.name, TMPDIR: profile };
  const browser = spawn(CHROMIUM, ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--window-position=0,0', `--user-data-dir=${profile}`, url], { stdio: 'ignore', detached: true, env });
  try {
    const x = (...args: string[]) => execFileSync('xdotool', args, { env });
    const { layout } = await until('the page', () => reports.at(0));
    await sleep(500);
    x('mousemove', '40', '500');
    const first = await until('a first mouse move', () => reports.flatMap((r) => r.events).find((e) => e.type === 'mousemove'));
    const offset = [first.sx! - first.x!, first.sy! - first.y!];
    reports = [];
    let at = [40, 500];
    const moveTo = async ([cx, cy]: [number, number]) => {
      const to = [Math.round(cx + offset[0]!), Math.round(cy + offset[1]!)];
      for (let i = 1; i <= 12; i++) {
        x('mousemove', String(Math.round(at[0]! + ((to[0]! - at[0]!) * i) / 12)), String(Math.round(at[1]! + ((to[1]! - at[1]!) * i) / 12)));
        await sleep(15);
      }
      at = to;
    };
    const press = async () => {
      x('mousedown', '1');
      await sleep(90);
      x('mouseup', '1');
      await sleep(150);
    };
    await moveTo(layout.go);
    await press();
    await moveTo(layout.name);
    await press();
    x('key', '--delay', '120', 'ctrl+a', 'BackSpace');
    x('type', '--delay', '110', 'Hi There');
    await moveTo(layout.note);
    await press();
    x('key', 'Home');
    x('type', '--delay', '110', 'Ok');
    x('key', 'Tab');
    await moveTo(layout.agree);
    await press();
    // The button below the fold: the wheel brings it up, then the pointer goes there.
    await moveTo([700, 400]);
    for (let i = 0; i < 9; i++) {
      x('click', '5');
      await sleep(70);
    }
    await sleep(1000);
    await moveTo(reports.at(-1)!.layout.far);
    await press();
    return await collect();
  } finally {
    try {
      process.kill(-browser.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

// A key's hold: until its keyup (a capital's keyup may come after Shift's, as a lower-case letter); -1 when its keyup came after the report.
const keyHold = (after: Seen[], down: Seen) => {
  const up = after.find((e) => e.type === 'keyup' && e.key?.toLowerCase() === down.key?.toLowerCase());
  return up ? Math.round(up.t - down.t) : -1;
};

/** What no mouse or keyboard produces, counted. */
function tells(events: Seen[], ratio: number) {
  const pointer = events.filter((e) => /^(pointer|mouse)|^click$/.test(e.type));
  const downs = events.map((e, i) => ({ e, i })).filter(({ e }) => e.type === 'pointerdown');
  const upOf = (from: number, type: string) => events.slice(from).find((e) => e.type === type);
  return {
    pointerdownWithoutMousedown: downs.filter(({ i }) => {
      const next = events.slice(i + 1).find((e) => e.type === 'mousedown' || e.type === 'pointerup');
      return next?.type !== 'mousedown';
    }).length,
    capitalWithoutShift: events.filter((e) => e.type === 'keydown' && /^[A-Z]$/.test(e.key ?? '') && !e.shift && !e.caps).length,
    offPixelGrid: pointer.filter((e) => !Number.isInteger(e.x! * ratio) || !Number.isInteger(e.y! * ratio)).length,
    fieldFocusedByScript: events.filter((e) => e.type === 'focus' && e.target !== 'go' && e.fromDevice === false).length,
    // The page scrolled with no wheel turned within the second before (Playwright scrolls by script).
    scrollWithoutWheel: events.filter((e) => e.type === 'scroll' && !events.some((w) => w.type === 'wheel' && w.t <= e.t && e.t - w.t < 1000)).length,
    wheels: events.filter((e) => e.type === 'wheel').length,
    buttonHoldsMs: events.map((e, i) => (e.type === 'mousedown' ? Math.round(upOf(i, 'mouseup')!.t - e.t) : -1)).filter((ms) => ms >= 0),
    keyHoldsMs: events.map((e, i) => (e.type === 'keydown' ? keyHold(events.slice(i), e) : -1)).filter((ms) => ms >= 0),
  };
}

test('input as a page sees it: ours has none of the tells that a real mouse and keyboard (X input into an unautomated Chromium) never give; the upstream CLI alongside', { timeout: 180_000 }, async (t) => {
  const control = await driveByHand();
  const upstream = await driveByTools(await connectUpstream(`${dirs.path}/upstream`));
  const ours = await driveByTools(await connect(testEnv(`${dirs.path}/ours`)));
  const [c, u, o] = [control, upstream, ours].map((side) => tells(side.events, 1));
  t.diagnostic(`control: ${JSON.stringify(c)}`);
  t.diagnostic(`upstream: ${JSON.stringify(u)}`);
  t.diagnostic(`ours: ${JSON.stringify(o)}`);
  // Every side typed the same text.
  assert.deepEqual(control.values, ['Hi There', 'Okx', true]);
  assert.deepEqual(upstream.values, ['Hi There', 'Okx', true]);
  assert.deepEqual(ours.values, ['Hi There', 'Okx', true]);
  // The yardstick: real input gives none of them.
  const none = { pointerdownWithoutMousedown: 0, capitalWithoutShift: 0, offPixelGrid: 0, fieldFocusedByScript: 0, scrollWithoutWheel: 0 };
  const structural = ({ buttonHoldsMs: _b, keyHoldsMs: _k, wheels: _w, ...rest }: ReturnType<typeof tells>) => rest;
  assert.deepEqual(structural(c!), none, 'real X input');
  assert.deepEqual(structural(o!), none, 'ours');
  // The upstream shows the tells the checks look for: a capital without Shift (slowly), an element's exact centre, a field focused by script (fill).
  assert.ok(u!.capitalWithoutShift > 0 && u!.offPixelGrid > 0 && u!.fieldFocusedByScript > 0 && u!.scrollWithoutWheel > 0, JSON.stringify(u));
  assert.ok(c!.wheels > 0 && o!.wheels > 0, 'the button below the fold was wheeled to');
  // Buttons and keys stay down as a finger holds them (Playwright lets them up at once).
  assert.ok(o!.buttonHoldsMs.length >= 5 && o!.buttonHoldsMs.every((ms) => ms >= 30), `button holds ${o!.buttonHoldsMs}`);
  assert.ok(o!.keyHoldsMs.length >= 10 && o!.keyHoldsMs.every((ms) => ms >= 20), `key holds ${o!.keyHoldsMs}`);
});
