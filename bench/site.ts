import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onCleanup } from './cleanup.ts';

// The pages every variant visits, served from 127.0.0.1 only. One mid-sized
// page (headings, a form, a table, links) so snapshots do real work without
// the page itself dominating the timings.

function benchPage(): string {
  const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>Item ${i + 1}</td><td>${(i * 7) % 13}</td><td><a href="/item/${i + 1}">details</a></td></tr>`).join('');
  const links = Array.from({ length: 20 }, (_, i) => `<li><a href="/section/${i + 1}">Section ${i + 1}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench page</title></head><body>
<header><h1>Bench page</h1><nav><ul>${links}</ul></nav></header>
<main>
<form><label>Name <input name="name"></label><label>Email <input name="email" type="email"></label>
<label><input type="checkbox" name="agree"> I agree</label><select name="choice"><option>One</option><option>Two</option></select>
<button type="button" onclick="document.getElementById('out').textContent='clicked'">Send</button></form>
<p id="out">not clicked</p>
<table><thead><tr><th>Name</th><th>Value</th><th>Link</th></tr></thead><tbody>${rows}</tbody></table>
</main></body></html>`;
}

export interface Site {
  url: string;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const page = benchPage();
  const server = http.createServer((req, res) => {
    const found = req.url === '/' || req.url?.startsWith('/item/') || req.url?.startsWith('/section/');
    res.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(found ? page : 'not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const done = onCleanup('page server', close);
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      done();
      await close();
    },
  };
}
