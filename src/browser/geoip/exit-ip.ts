import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { hasCredentials, maskCredentialsIn, type ProxySpec } from '../proxy/proxy-url.ts';
import { connectToProxy, tunnel } from '../proxy/tunnel.ts';

export interface ExitIp {
  ip: string;
  /** The IP-echo endpoint that answered. */
  endpoint: string;
}

const MAX_BODY = 4096;

/**
 * The address the world sees for this proxy: asks the IP-echo endpoints in
 * turn, through the SAME proxy, each over a fresh connection (a pooled socket
 * once leaked one proxy's identity to the next; research §1.8). Plain-text
 * answers only (`1.2.3.4`). Throws with every endpoint's reason.
 */
export async function findExitIp(spec: ProxySpec | undefined, endpoints: string[], timeoutMs: number): Promise<ExitIp> {
  const reasons: string[] = [];
  for (const endpoint of endpoints) {
    try {
      const body = await fetchText(spec, new URL(endpoint), AbortSignal.timeout(timeoutMs));
      const ip = body.trim();
      if (net.isIP(ip)) return { ip, endpoint };
      reasons.push(`${endpoint}: answered ${JSON.stringify(body.slice(0, 60))}, not an IP address`);
    } catch (error) {
      reasons.push(`${endpoint}: ${maskCredentialsIn((error as Error).message, spec)}`);
    }
  }
  throw new Error(`no IP-echo endpoint gave the exit IP (${reasons.join('; ')})`);
}

function fetchText(spec: ProxySpec | undefined, url: URL, signal: AbortSignal): Promise<string> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A plain-http endpoint through an HTTP proxy is an ordinary proxied GET
  // (absolute URI); everything else goes through a tunnel.
  const forward = spec && !secure && spec.scheme !== 'socks5';
  const options: http.RequestOptions = {
    method: 'GET',
    path: forward ? url.href : `${url.pathname}${url.search}`,
    headers: {
      host: url.host,
      accept: 'text/plain',
      'user-agent': 'stealth-playwright-mcp',
      connection: 'close',
      ...(forward && hasCredentials(spec) ? { 'proxy-authorization': `Basic ${Buffer.from(`${spec.username}:${spec.password ?? ''}`).toString('base64')}` } : {}),
    },
    signal,
  };
  const socket = async (): Promise<net.Socket> => {
    const raw = spec
      ? forward ? await connectToProxy(spec, signal) : await tunnel(spec, host, port, signal)
      : await new Promise<net.Socket>((resolve, reject) => {
          const s = net.connect({ host, port, signal }, () => resolve(s));
          s.once('error', reject);
        });
    if (!secure) return raw;
    return await new Promise<net.Socket>((resolve, reject) => {
      const s = tls.connect({ socket: raw, servername: net.isIP(host) ? undefined : host }, () => resolve(s));
      s.once('error', reject);
    });
  };
  return new Promise((resolve, reject) => {
    socket().then((s) => {
      // createConnection with no agent: this one socket, never a pooled one.
      const req = http.request({ ...options, createConnection: () => s }, (res) => {
        if (res.statusCode === 407) return (res.destroy(), reject(new Error('the proxy rejected the user name or password (407)')));
        if ((res.statusCode ?? 0) >= 300) return (res.destroy(), reject(new Error(`HTTP ${res.statusCode}`)));
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > MAX_BODY) res.destroy(new Error('answer too long for an IP address'));
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      });
      req.on('error', (error) => (s.destroy(), reject(error)));
      req.end();
    }, reject);
  });
}
