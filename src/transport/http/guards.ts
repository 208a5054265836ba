import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return net.isIPv4(bare) && bare.startsWith('127.');
}

/** `Authorization: Bearer <token>`, compared in constant time (both sides hashed to one length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const parts = header?.trim().split(/\s+/) ?? [];
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(parts[1]!), digest(token));
}

/** The host part of a Host header (`[::1]:80` → `[::1]`, `name:80` → `name`). */
export function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0]!;
}

export interface OriginPolicy {
  /** Only loopback binds check Host: a rebinding attack reaches them under a foreign name. */
  checkHost: boolean;
  allowedHosts: string[];
  allowedOrigins: string[];
}

/** Rejects DNS-rebinding (foreign Host on a loopback bind) and foreign browser Origins; returns why, or undefined. */
export function originProblem(headers: IncomingHttpHeaders, policy: OriginPolicy): string | undefined {
  const host = headers.host ?? '';
  // `*` turns the Host check off, as the upstream's `--allowed-hosts '*'` does (a proxy in front that passes any name).
  if (policy.checkHost && !policy.allowedHosts.includes('*')) {
    const name = hostnameOf(host).toLowerCase();
    const allowed = isLoopbackHost(name) || policy.allowedHosts.some((h) => h.toLowerCase() === name || h.toLowerCase() === host.toLowerCase());
    if (!allowed) return `Host "${host}" is not allowed (add it with --http-allowed-hosts)`;
  }
  const origin = headers.origin;
  if (origin && origin !== 'null') {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return 'Origin header is malformed';
    }
    const allowed = isLoopbackHost(hostnameOf(originHost)) || originHost.toLowerCase() === host.toLowerCase() || policy.allowedOrigins.includes(origin);
    if (!allowed) return `Origin "${origin}" is not allowed (add it with --http-allowed-origins)`;
  }
  return undefined;
}
