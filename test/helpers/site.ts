import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A small site on 127.0.0.1 for the browser to visit.
const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Bridge test home</title>
<h1>Hello from the test site</h1>
<button id="go" onclick="document.getElementById('out').textContent = 'clicked ' + document.getElementById('name').value; console.log('button clicked')">Click me</button>
<input id="name" aria-label="Your name">
<p id="out">not clicked</p>
<a href="/second">Second page</a>
<script>console.log('page loaded'); console.error('an error for the console'); console.warn('a warning')</script>`,
  '/second': `<!doctype html><title>Second page</title><h1>Second</h1>`,
  '/app-link': `<!doctype html><title>App link</title><a href="zoommtg://join?confno=1">Join in the app</a> <button onclick="document.title = 'clicked after the link'">After the link</button>`,
  '/ua': `<!doctype html><title>UA</title><pre id="ua"></pre><script>document.getElementById('ua').textContent = navigator.userAgent + ' webdriver=' + navigator.webdriver</script>`,
};

export interface Site {
  url: string;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const server = http.createServer((req, res) => {
    const page = PAGES[req.url ?? '/'];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** One page, served at every path on 127.0.0.1. */
export async function servePage(html: string): Promise<Site> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
