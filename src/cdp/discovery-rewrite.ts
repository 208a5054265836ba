/** Where clients reach a session's CDP: scheme://host:port/<capability>. */
export interface PublicBase {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  capability: string;
}

export function publicUrl(base: PublicBase): string {
  const host = base.host.includes(':') ? `[${base.host}]` : base.host;
  return `${base.scheme}://${host}:${base.port}/${base.capability}`;
}

/**
 * Rewrites the browser's discovery JSON so every URL in it points at the
 * public listener (with the capability) and the internal port never leaks.
 */
export function rewriteDiscovery(body: string, internalPort: number, base: PublicBase): string {
  const wsScheme = base.scheme === 'https' ? 'wss' : 'ws';
  const host = base.host.includes(':') ? `[${base.host}]` : base.host;
  const publicAuthority = `${host}:${base.port}/${base.capability}`;
  const internal = new RegExp(`(ws|http)s?://(?:127\\.0\\.0\\.1|localhost|\\[::1\\]):${internalPort}/`, 'g');
  const bare = new RegExp(`(ws=|wss=)(?:127\\.0\\.0\\.1|localhost|\\[::1\\]):${internalPort}/`, 'g');
  return body
    .replace(internal, (_m, kind: string) => `${kind === 'ws' ? wsScheme : base.scheme}://${publicAuthority}/`)
    .replace(bare, () => `${wsScheme}=${publicAuthority}/`);
}
