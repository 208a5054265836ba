import fs from 'node:fs';
import path from 'node:path';

// The detector pages: each runs one open-source detector from npm (or our own
// probe), then posts `{ flagged, signals }` to /report/<page>. The same pages
// serve our server and the unautomated control, so both are judged alike.
const ROOT = path.resolve(import.meta.dirname, '..');
const lib = (file: string) => fs.readFileSync(path.join(ROOT, 'node_modules', file), 'utf8');

export const LIBRARIES: Record<string, { file: string; type: string }> = {
  '/lib/botd.js': { file: '@fingerprintjs/botd/dist/botd.esm.js', type: 'text/javascript' },
  '/lib/fpscanner.js': { file: 'fpscanner/dist/fpScanner.es.js', type: 'text/javascript' },
  '/lib/headless-detector.js': { file: 'headless-detector/scripts/headless-detector.js', type: 'text/javascript' },
};

export function library(pathname: string): string | undefined {
  const entry = LIBRARIES[pathname];
  return entry ? lib(entry.file) : undefined;
}

// A button and a field give the MCP driver something to click and type into,
// as an agent would; the detectors run after a short settle.
const SHELL = (name: string, body: string) => `<!doctype html><title>${name}</title>
<button id="go" style="margin:200px 0 0 300px;width:160px;height:40px">Continue</button>
<input aria-label="Search" style="margin-left:40px">
<script>
function report(result) {
  fetch('/report/${name}', { method: 'POST', body: JSON.stringify(result) });
}
</script>
${body}`;

export const DETECTORS: Record<string, string> = {
  botd: SHELL('botd', `<script type="module">
import { load } from '/lib/botd.js';
setTimeout(async () => {
  try {
    const botd = await load({ monitoring: false });
    const result = botd.detect();
    const detections = botd.getDetections ? botd.getDetections() : {};
    const signals = {};
    for (const [k, v] of Object.entries(detections || {})) signals[k] = v && v.state === 0 ? String(v.value).slice(0, 60) : null;
    report({ flagged: !!result.bot, signals: { botKind: result.bot ? result.botKind : null } });
  } catch (e) { report({ flagged: null, error: String(e) }); }
}, 1500);
</script>`),
  fpscanner: SHELL('fpscanner', `<script type="module">
import FingerprintScanner from '/lib/fpscanner.js';
setTimeout(async () => {
  try {
    const fp = await new FingerprintScanner().collectFingerprint({ encrypt: false });
    const signals = {};
    for (const [k, v] of Object.entries(fp.fastBotDetectionDetails || {})) signals[k] = !!(v && (v.detected ?? v));
    report({ flagged: !!fp.fastBotDetection, signals });
  } catch (e) { report({ flagged: null, error: String(e) }); }
}, 1500);
</script>`),
  'headless-detector': SHELL('headless-detector', `<script src="/lib/headless-detector.js"></script>
<script>
setTimeout(async () => {
  try {
    const r = await detectHeadless(false);
    const signals = {};
    const walk = (prefix, o) => { for (const [k, v] of Object.entries(o || {})) { if (typeof v === 'boolean') signals[prefix + k] = v; else if (v && typeof v === 'object' && typeof v.detected === 'boolean') signals[prefix + k] = v.detected; } };
    for (const group of ['automationFlags', 'cdpArtifacts', 'headlessIndicators', 'userAgentFlags', 'advancedChecks', 'webglFlags']) walk(group + '.', r[group]);
    signals.webdriver = !!r.webdriver;
    // Its own scale: 0.5 and above is "likely headless".
    report({ flagged: r.isHeadless >= 0.5, score: r.isHeadless, signals });
  } catch (e) { report({ flagged: null, error: String(e) }); }
}, 1500);
</script>`),
  // Our own probe: what the bridge is responsible for (user agent everywhere, console, geometry).
  probe: SHELL('probe', `<script>
// WebMCP discovery (the upstream's, at every snapshot) reads these in the page's own world.
let modelContextReads = 0;
for (const proto of [Document.prototype, Navigator.prototype]) Object.defineProperty(proto, 'modelContext', { get() { modelContextReads++; return undefined; }, configurable: true });
// A wrapped addEventListener sees who registers listeners on the page's window: Playwright's injected script, once in this world.
let playwrightListeners = false;
const addListener = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, ...rest) { if (String(type).startsWith('__playwright')) playwrightListeners = true; return addListener.call(this, type, ...rest); };
// A wrapped getElementById reads its callers' stack (rebrowser's sourceUrlLeak): the agent's browser_evaluate calls it on this page.
let evaluateCallerNamed = false;
const byId = Document.prototype.getElementById;
const callerStack = () => { const hook = Error.prepareStackTrace; Error.prepareStackTrace = undefined; const stack = new Error('probe').stack; Error.prepareStackTrace = hook; return stack; };
Document.prototype.getElementById = function (id) { if (/UtilityScript|eval at|__playwright|pptr:/.test(callerStack())) evaluateCallerNamed = true; return byId.call(this, id); };
// Builtins a driver's own code in this world calls (building its helpers, serializing a result, setting up
// its injected script) read their callers the same way: Playwright's class and function names.
let builtinCallerNamed = false;
let readingCallers = false;
for (const [owner, name] of [[Function.prototype, 'bind'], [Object, 'keys'], [Array.prototype, 'push'], [Map.prototype, 'set'], [Set.prototype, 'add']]) {
  const original = owner[name];
  owner[name] = function (...args) {
    if (!readingCallers) { readingCallers = true; if (/UtilityScript|InjectedScript|innerSerialize|serializeAsCallArgument/.test(callerStack())) builtinCallerNamed = true; readingCallers = false; }
    return Reflect.apply(original, this, args);
  };
}
// Activation comes from input (keydown, mousedown, pointerup...): the moment the page is first activated, was there any?
let inputEvents = 0;
let activatedWithoutInput = false;
for (const type of ['keydown', 'mousedown', 'pointerdown', 'pointerup', 'touchend']) addEventListener(type, () => inputEvents++, true);
// Input as a page sees it (the agent's click and typing): what no mouse or keyboard gives.
const seenInput = [];
for (const type of ['pointerdown', 'pointerup', 'pointermove', 'mousedown', 'mouseup', 'mousemove', 'focus', 'keydown', 'keyup']) addEventListener(type, (e) => seenInput.push({ type: e.type, t: e.timeStamp, x: e.clientX, y: e.clientY, code: e.code, field: e.target && e.target.nodeName === 'INPUT', fromDevice: e.sourceCapabilities !== null }), true);
function inputTells() {
  const after = (i, type, same) => seenInput.slice(i + 1).find((e) => e.type === type && (!same || same(e)));
  return {
    // A pointerdown with no mousedown before its pointerup: the page's events cancelled around a press (Playwright's trial click).
    pointerdownWithoutMousedown: seenInput.some((e, i) => e.type === 'pointerdown' && (seenInput.slice(i + 1).find((n) => n.type === 'mousedown' || n.type === 'pointerup') || {}).type !== 'mousedown'),
    // A pointer between device pixels: a mouse lands on them.
    pointerOffGrid: seenInput.some((e) => e.x !== undefined && (!Number.isInteger(e.x * devicePixelRatio) || !Number.isInteger(e.y * devicePixelRatio))),
    // A field focused by script (element.focus()): its focus event has no sourceCapabilities.
    fieldFocusedByScript: seenInput.some((e) => e.type === 'focus' && e.field && !e.fromDevice),
    // A button or key let up within a few milliseconds of going down.
    releasedAtOnce: seenInput.some((e, i) => (e.type === 'mousedown' && (after(i, 'mouseup') || { t: Infinity }).t - e.t < 10) || (e.type === 'keydown' && (after(i, 'keyup', (u) => u.code === e.code) || { t: Infinity }).t - e.t < 5)),
  };
}
// Chromium's popup blocker refuses a window a script opens with no input behind it (window.open
// returns null); Playwright launches with --disable-popup-blocking, which lets it through. Asked
// before the agent's first input, the window closed at once.
let popupWithoutInput = false;
setTimeout(() => { if (inputEvents) return; const w = window.open('about:blank', '_blank', 'width=100,height=100'); popupWithoutInput = !!w; w?.close(); }, 50);
const activationWatch = setInterval(() => { if (navigator.userActivation.hasBeenActive) { activatedWithoutInput = inputEvents === 0; clearInterval(activationWatch); } }, 5);
const moves = [];
addEventListener('mousemove', () => moves.push(performance.now()), true);
const err = new Error('x');
let stackRead = false;
Object.defineProperty(err, 'stack', { get() { stackRead = true; return ''; } });
console.log(err);
// A patient probe: a hook left installed after logging, read at the report (after the agent's
// calls): did anything ever describe the logged Error, at once or later?
let loggedErrorDescribed = false;
Error.prepareStackTrace = () => { loggedErrorDescribed = true; return ''; };
console.log(new Error('late'));
// Headless tells that CreepJS, sannysoft and "are you headless" read (an unautomated
// Chromium in the same mode is the yardstick: what fires there too is the mode's, not ours).
async function headlessTells() {
  const probe = document.createElement('div');
  probe.style.backgroundColor = 'ActiveText';
  document.body.appendChild(probe);
  const activeText = getComputedStyle(probe).backgroundColor;
  probe.remove();
  const notifications = await navigator.permissions.query({ name: 'notifications' }).then((p) => p.state, () => 'error');
  const voices = await new Promise((resolve) => { const v = speechSynthesis.getVoices(); if (v.length) return resolve(v.length); speechSynthesis.onvoiceschanged = () => resolve(speechSynthesis.getVoices().length); setTimeout(() => resolve(speechSynthesis.getVoices().length), 1000); });
  const devices = await navigator.mediaDevices?.enumerateDevices().then((d) => d.length, () => -1) ?? -2;
  return {
    noChrome: !('chrome' in window),
    pluginsEmpty: navigator.plugins.length === 0,
    mimeTypesEmpty: navigator.mimeTypes.length === 0,
    pdfViewerDisabled: navigator.pdfViewerEnabled === false,
    languagesEmpty: !navigator.languages || navigator.languages.length === 0,
    notificationPermissionMismatch: Notification.permission === 'denied' && notifications === 'prompt',
    noTaskbar: screen.height === screen.availHeight && screen.width === screen.availWidth,
    knownHeadlessBackground: activeText === 'rgb(255, 0, 0)',
    noVoices: voices === 0,
    noMediaDevices: devices <= 0,
    connectionRttZero: navigator.connection?.rtt === 0,
    headlessBrand: (navigator.userAgentData?.brands ?? []).some((b) => /Headless/.test(b.brand)),
    outerZero: outerWidth === 0 || outerHeight === 0,
    noFocus: !document.hasFocus(),
    hidden: document.visibilityState !== 'visible',
    lowConcurrency: navigator.hardwareConcurrency < 2,
    noDeviceMemory: navigator.deviceMemory === undefined,
  };
}
// The report waits for the agent's click, its typing (humanised typing takes ~150 ms a key) and its evaluate.
setTimeout(async () => {
  const ua = navigator.userAgent;
  const worker = await new Promise((resolve) => {
    const w = new Worker(URL.createObjectURL(new Blob(['postMessage(navigator.userAgent)'])));
    w.onmessage = (e) => resolve(e.data);
    setTimeout(() => resolve('timeout'), 2000);
  });
  const shared = await new Promise((resolve) => {
    const s = new SharedWorker(URL.createObjectURL(new Blob(['onconnect = (e) => e.ports[0].postMessage(navigator.userAgent)'])));
    s.port.onmessage = (e) => resolve(e.data);
    setTimeout(() => resolve('timeout'), 2000);
  });
  // fpscanner's hasCDP run inside a dedicated worker: drivers enable CDP's Runtime domain there too.
  const workerCDP = await new Promise((resolve) => {
    const w = new Worker(URL.createObjectURL(new Blob(["let hit = false; Error.prepareStackTrace = () => { hit = true; return ''; }; console.log(new Error('x')); postMessage(hit)"])));
    w.onmessage = (e) => resolve(e.data);
    setTimeout(() => resolve(false), 2000);
  });
  // An unautomated Chromium drops state changes past ~200 in a burst (IPC flooding protection).
  let pushed = 0;
  for (let i = 0; i < 300; i++) { history.pushState({}, '', '?n=' + i); if (location.search === '?n=' + i) pushed++; }
  history.replaceState({}, '', location.pathname);
  // A user-agent switch empties the high-entropy client hints; no Chrome answers an empty full version list.
  const hints = await navigator.userAgentData.getHighEntropyValues(['uaFullVersion', 'fullVersionList', 'architecture', 'bitness']);
  const uaMajor = (ua.match(/Chrome.(\\d+)/) || [])[1];
  const clientHintsEmpty = !hints.fullVersionList?.length || !hints.architecture || !hints.bitness || hints.uaFullVersion.split('.')[0] !== uaMajor;
  const automationGlobals = Object.getOwnPropertyNames(window).filter((name) => /playwright|__pw|puppeteer|cdc_|selenium|webdriver/i.test(name));
  const signals = {
    webdriver: navigator.webdriver === true,
    workerCDP,
    loggedErrorDescribed,
    evaluateCallerNamed,
    builtinCallerNamed,
    modelContextRead: modelContextReads > 0,
    automationGlobals: automationGlobals.join(',') || false,
    headlessUserAgent: /Headless/.test(ua + worker + shared),
    workerUserAgentDiffers: worker !== ua || shared !== ua,
    stackGetterRead: stackRead,
    consoleNotNative: !/\\[native code\\]/.test(Function.prototype.toString.call(console.log)),
    automationViewport: innerWidth === 1280 && innerHeight === 720,
    outerEqualsInner: outerHeight === innerHeight && outerWidth === innerWidth,
    // Playwright's emulation alone: a screen the size of the page, or a window taller or wider than the screen can show
    // (a maximized window overhangs its screen by its 8-pixel borders at most).
    screenIsViewport: screen.width === innerWidth && screen.height === innerHeight,
    windowOffScreen: outerHeight > screen.availHeight + 16 || outerWidth > screen.availWidth + 16,
    historyUnthrottled: pushed === 300,
    clientHintsEmpty,
    activatedWithoutInput,
    popupWithoutInput,
    playwrightListeners,
    ...inputTells(),
    ...(await headlessTells()),
  };
  report({ flagged: Object.values(signals).some(Boolean), signals });
}, 6000);
</script>`),
};
