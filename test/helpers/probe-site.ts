import http from 'node:http';
import type { AddressInfo } from 'node:net';

// Our own automation probe, served from 127.0.0.1: what detectors look at
// that the bridge (not the browser build) is responsible for. The page fills
// window.__probe; a test reads it after driving the page with MCP tools.
const WORKER_UA = `postMessage([navigator.userAgent, JSON.stringify(navigator.userAgentData && navigator.userAgentData.brands), self.__hooked])`;
// fpscanner's hasCDP, inside a worker: a driver that keeps CDP's Runtime domain on there has V8 run the hook at once.
const WORKER_HOOK = `self.__hooked = false; { const o = Error.prepareStackTrace; Error.prepareStackTrace = (e) => { self.__hooked = true; return String(e); }; console.log(new Error('probe')); Error.prepareStackTrace = o; }`;

const PROBE = `<!doctype html><title>Probe</title>
<button id="target" style="position:absolute;left:420px;top:300px;width:160px;height:48px">Target</button>
<input id="field" aria-label="Field" style="position:absolute;left:420px;top:400px">
<input id="consent" type="checkbox" aria-label="Consent" style="position:absolute;left:120px;top:200px">
<select id="pick" aria-label="Pick" style="position:absolute;left:420px;top:460px"><option>One</option><option disabled>Two</option><option>Three</option></select>
<iframe id="frame" srcdoc="<p>frame</p>" style="position:absolute;left:0;top:600px;width:200px;height:80px"></iframe>
<script>
const probe = { moves: [], clicks: [], keyEvents: [], ua: {}, modelContextReads: 0, timersSet: [] };
window.__probe = probe;
// The page's own calls of the built-ins the spies below watch run inside mine().
let own = 0;
const mine = (work) => { own++; try { return work(); } finally { own--; } };
// This page sets no timer of its own: any setTimeout in its world comes from the driver (the upstream's settle wait after actions).
{ const native = window.setTimeout; window.setTimeout = function (f, ms, ...rest) { mine(() => probe.timersSet.push(ms)); return native.call(this, f, ms, ...rest); }; }
// The upstream's WebMCP discovery reads these in the page's own world at every snapshot; a page sees it with a getter.
for (const proto of [Document.prototype, Navigator.prototype]) Object.defineProperty(proto, 'modelContext', { get() { probe.modelContextReads++; return undefined; }, configurable: true });
addEventListener('mousemove', (e) => mine(() => probe.moves.push([e.clientX, e.clientY, performance.now()])), true);
addEventListener('click', (e) => mine(() => probe.clicks.push([e.clientX, e.clientY, probe.moves.length, e.isTrusted, e.target.id, [e.screenX - e.clientX - screenX, e.screenY - e.clientY - screenY, outerWidth - innerWidth, outerHeight - innerHeight]])), true);
for (const type of ['keydown', 'keyup']) addEventListener(type, (e) => mine(() => probe.keyEvents.push([type, e.key, performance.now()])), true);
// A person's choice in a <select> gives trusted input and change events; one set from script does not.
probe.selectEvents = [];
for (const type of ['input', 'change']) document.getElementById('pick').addEventListener(type, (e) => mine(() => probe.selectEvents.push(type + ':' + e.isTrusted)));
// A logged Error whose stack getter fires only if someone serialises it (CDP console previews, a recorder).
probe.stackRead = false;
const err = new Error('probe');
Object.defineProperty(err, 'stack', { get() { probe.stackRead = true; return 'stack'; }, configurable: true });
console.log(err);
console.debug(err);
// fpscanner's hasCDP: a driver with CDP's Runtime domain on has V8 format a logged Error's stack at once, through the page's hook.
probe.prepareStackTrace = false;
const originalPrepare = Error.prepareStackTrace;
Error.prepareStackTrace = function (e, frames) { probe.prepareStackTrace = true; return originalPrepare ? originalPrepare(e, frames) : String(e); };
console.log(new Error('probe'));
Error.prepareStackTrace = originalPrepare;
// A patient probe: the hook stays installed after logging, and is read much later.
probe.lateHook = false;
let lateLogged = false;
Error.prepareStackTrace = function (e) { probe.lateHook = probe.lateHook || (lateLogged ? 'later' : 'at once'); return String(e); };
console.log(new Error('late probe'));
lateLogged = true;
probe.consoleNative = [console.log, console.debug, console.error].every((f) => Function.prototype.toString.call(f) === 'function ' + f.name + '() { [native code] }');
probe.webdriver = navigator.webdriver;
probe.ua.page = navigator.userAgent;
probe.ua.pageBrands = JSON.stringify(navigator.userAgentData && navigator.userAgentData.brands);
document.getElementById('frame').addEventListener('load', () => { probe.ua.iframe = document.getElementById('frame').contentWindow.navigator.userAgent; });
probe.workerHooks = {};
const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(WORKER_HOOK + ';' + WORKER_UA)}])));
worker.onmessage = (e) => { probe.ua.worker = e.data[0]; probe.ua.workerBrands = e.data[1]; probe.workerHooks.worker = e.data[2]; };
const shared = new SharedWorker(URL.createObjectURL(new Blob([${JSON.stringify(WORKER_HOOK)} + ';onconnect = (e) => e.ports[0].' + ${JSON.stringify(WORKER_UA)}])));
shared.port.onmessage = (e) => { probe.ua.shared = e.data[0]; probe.workerHooks.shared = e.data[2]; };
navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
  navigator.serviceWorker.onmessage = (e) => { probe.ua.service = e.data[0]; probe.workerHooks.service = e.data[1]; };
  reg.active.postMessage('ua');
}).catch((e) => { probe.ua.service = 'error: ' + e.message; });
// Read once the page has loaded: at the first script of a page Chromium may not yet have given the renderer
// its window's rect (outer 0x0 under CPU load, on the upstream CLI too: a race of Chromium's, in the closing note of 2026-11-27).
addEventListener('load', () => requestAnimationFrame(() => { probe.geometry = { inner: [innerWidth, innerHeight], outer: [outerWidth, outerHeight], screen: [screen.width, screen.height], avail: [screen.availWidth, screen.availHeight] }; }));
// Built-ins a driver's script in the page's world would call (Playwright's utility script there slices its
// arguments at every evaluation), watched from here on. The list as it stood 100 ms ago is kept, so the
// final read (an evaluate of the agent's, the same on every side) is not in it.
probe.builtinCalls = [];
{
  const calls = [];
  for (const [owner, names, label] of [[Array.prototype, ['slice', 'push', 'map', 'join', 'splice', 'concat', 'indexOf', 'forEach', 'filter'], 'Array'], [Object, ['keys', 'entries', 'assign'], 'Object'], [JSON, ['stringify', 'parse'], 'JSON']]) {
    for (const name of names) { const native = owner[name]; owner[name] = function (...args) { if (!own) mine(() => calls.push(label + '.' + name)); return native.apply(this, args); }; }
  }
  setInterval(() => mine(() => { probe.builtinCalls = calls.slice(); }), 100);
}
</script>`;

const SERVICE_WORKER = `self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('message', (e) => { ${WORKER_HOOK}; e.source.postMessage([navigator.userAgent, self.__hooked]); });`;

export interface ProbeSite {
  url: string;
  close(): Promise<void>;
}

export async function startProbeSite(): Promise<ProbeSite> {
  const server = http.createServer((req, res) => {
    if (req.url === '/sw.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(SERVICE_WORKER);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PROBE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
