import http from 'node:http';
import type { AddressInfo } from 'node:net';

// Pages for the side-by-side run: one per tool family.
const PAGES: Record<string, string> = {
  '/form': `<!doctype html><title>Form</title>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'sent ' + new FormData(this).get('name') + ' ' + new FormData(this).get('color') + ' ' + (document.getElementById('agree').checked)">
<label>Name <input name="name" id="name"></label>
<label>Color <select name="color" id="color"><option>red</option><option>green</option><option>blue</option></select></label>
<label><input type="checkbox" id="agree"> Agree</label>
<button type="submit">Send</button></form><p id="out">not sent</p>
<button id="hover" onmouseover="this.textContent='hovered'">Hover me</button>
<div id="src" draggable="true" ondragstart="event.dataTransfer.setData('text', 'x')">Drag source</div>
<div id="dst" ondragover="event.preventDefault()" ondrop="this.textContent='dropped'">Drop target</div>`,
  '/tabs': `<!doctype html><title>Tabs</title><a href="/second" target="_blank">Open second</a>`,
  '/second': `<!doctype html><title>Second</title><h1>Second page</h1>`,
  '/upload': `<!doctype html><title>Upload</title><input type="file" aria-label="File" onchange="document.getElementById('out').textContent = this.files[0].name"><p id="out">none</p>`,
  '/download': `<!doctype html><title>Download</title><a href="/file.txt" download>Get file</a>`,
  '/network': `<!doctype html><title>Network</title><script>fetch('/api/data').then(r => r.json()).then(d => document.title = 'Network ' + d.n)</script>`,
  '/console': `<!doctype html><title>Console</title><script>console.log('hello log'); console.warn('a warning'); console.error('an error')</script>`,
  // Fields whose value keys do not spell: browser_type slowly focuses them as Playwright does (a click would pick the segment under the pointer, or move the slider).
  // Where a click lands decides the slider's value, the caret in the text field, and whether a chip opens or its remove button (right of its middle) goes.
  '/when': `<!doctype html><title>When</title><label>Clock <input type="time" id="clock"></label><label>Day <input type="date" id="day"></label><label>Level <input type="range" id="level" value="20"></label><label>Note <input id="note" value="hello world"></label>
<ul><li role="button" id="chip" onclick="chipLog.push('opened')" style="position:relative;width:200px;height:40px;list-style:none">Tag<button aria-label="Remove" onclick="event.stopPropagation(); chipLog.push('removed')" style="position:absolute;left:102px;top:0;width:38px;height:40px">x</button></li></ul><script>window.chipLog = []</script>`,
  '/more': `<!doctype html><title>More</title>
<label>Name <input id="name" value="Ada"></label>
<label><input type="checkbox" id="agree" checked> Agree</label>
<ul aria-label="Fruits"><li>apple</li><li>banana</li><li>cherry</li></ul>
<button onclick="document.getElementById('log').textContent = 'pressed'">Press</button>
<button onclick="alert('hi there')">Alert</button>
<button onclick="document.title = 'confirmed ' + confirm('sure?')">Confirm</button>
<div id="src" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', 'x')" style="width:100px;height:30px">Drag source</div>
<div id="dst" ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.textContent = 'dropped ' + event.dataTransfer.getData('text/plain')" style="width:200px;height:40px">Drop target</div>
<div id="log" role="status">idle</div>
<div id="pad" style="width:300px;height:200px" onmousedown="this.dataset.n = (this.dataset.n | 0) + 1" onmouseup="document.getElementById('log').textContent = 'pad ' + this.dataset.n">Pad</div>
<div style="height:3000px">tall</div>`,
  // Cancels every keydown (typing lands only by fill), and a button an overlay covers (a click times out).
  '/guarded': `<!doctype html><title>Guarded</title>
<label>Code <input id="code"></label><script>document.getElementById('code').addEventListener('keydown', (e) => e.preventDefault())</script>
<button onclick="document.title = 'reached'">Covered</button><div style="position:fixed;inset:0;z-index:9"></div>`,
  // Fields whose value keys do not spell out, and text fields that change what is typed.
  '/fields': `<!doctype html><title>Fields</title>
<label>Day <input type="date" id="day"></label><label>Week <input type="week" id="week"></label>
<label>Colour <input type="color" id="colour"></label><label>Level <input type="range" id="level"></label>
<label>Amount <input type="number" id="amount"></label><label>Short <input id="short" maxlength="3"></label>
<label>Loud <input id="loud" oninput="this.value = this.value.toUpperCase()"></label>
<form onsubmit="event.preventDefault(); document.title = 'submitted'"><label>Note <textarea id="note" onkeydown="if (event.key === 'Enter') this.form.requestSubmit()"></textarea></label></form>`,
  '/storage': `<!doctype html><title>Storage</title><script>localStorage.setItem('k', 'v'); sessionStorage.setItem('s', 't'); document.cookie = 'c=1'</script>`,
};

export interface ToolSite {
  url: string;
  close(): Promise<void>;
}

export async function startToolSite(): Promise<ToolSite> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/file.txt') return void res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="file.txt"' }).end('file body\n');
    // A favicon, so no 404 console error races into one result or the next.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/api/teapot') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('not a teapot');
    if (path === '/api/data') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"n":42}');
    const page = PAGES[path];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
