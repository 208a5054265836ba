// A proxy as the operator or a client writes it:
// `http|https|socks5://user:pass@host:port`, credentials percent-encoded.
// Parsed once, then only the parts travel; the credentials are never printed.
export type ProxyScheme = 'http' | 'https' | 'socks5';

export interface ProxySpec {
  scheme: ProxyScheme;
  host: string;
  port: number;
  username?: string;
  password?: string;
}

const DEFAULT_PORTS: Record<ProxyScheme, number> = { http: 80, https: 443, socks5: 1080 };

export const PROXY_URL_ACCEPTS = 'a proxy URL http://, https:// or socks5://[user:pass@]host[:port], credentials percent-encoded';

export class ProxyUrlError extends Error {
  override name = 'ProxyUrlError';
}

/** Throws a ProxyUrlError whose message never contains the credentials. */
export function parseProxyUrl(raw: string): ProxySpec {
  const text = raw.trim();
  const scheme = /^([a-z0-9]+):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (!scheme) throw new ProxyUrlError('it has no scheme (write http://, https:// or socks5:// before the host)');
  // socks5h means "remote DNS", which is what Chromium does for socks5 anyway.
  const normalised: ProxyScheme | undefined = scheme === 'socks5h' ? 'socks5' : (['http', 'https', 'socks5'] as const).find((s) => s === scheme);
  if (!normalised) throw new ProxyUrlError(`scheme ${scheme}:// is not supported (use http, https or socks5)`);
  let url: URL;
  try {
    url = new URL(text.replace(/^[a-z0-9]+:/i, 'http:'));
  } catch {
    throw new ProxyUrlError('it is not a valid URL (percent-encode special characters such as @ : / in the user name and password)');
  }
  if (!url.hostname) throw new ProxyUrlError('it has no host');
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) throw new ProxyUrlError('it has a path, query or fragment (only scheme://[user:pass@]host[:port] is accepted)');
  // new URL() drops the scheme's default port; keep what was written, else the scheme's own default.
  const written = /:(\d+)\/?$/.exec(text)?.[1];
  const port = written ? Number(written) : url.port ? Number(url.port) : DEFAULT_PORTS[normalised];
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ProxyUrlError('its port is not between 1 and 65535');
  const spec: ProxySpec = { scheme: normalised, host: url.hostname.replace(/^\[|\]$/g, ''), port };
  try {
    if (url.username) spec.username = decodeURIComponent(url.username);
    if (url.password) spec.password = decodeURIComponent(url.password);
  } catch {
    throw new ProxyUrlError('its user name or password has a broken percent-encoding');
  }
  if (spec.password !== undefined && spec.username === undefined) throw new ProxyUrlError('it has a password but no user name');
  return spec;
}

export function hasCredentials(spec: ProxySpec): boolean {
  return spec.username !== undefined;
}

function hostPort(spec: ProxySpec): string {
  return `${spec.host.includes(':') ? `[${spec.host}]` : spec.host}:${spec.port}`;
}

/** scheme://host:port, no credentials: what Chromium's --proxy-server and Playwright's `server` take. */
export function proxyServer(spec: ProxySpec): string {
  return `${spec.scheme}://${hostPort(spec)}`;
}

/** For logs, errors and info: the credentials replaced by stars. */
export function maskedProxy(spec: ProxySpec): string {
  return `${spec.scheme}://${hasCredentials(spec) ? '***:***@' : ''}${hostPort(spec)}`;
}

/**
 * With the credentials inline, each part percent-encoded again: Chromium cuts
 * an inline password at characters such as `=` (research §1.7).
 */
export function inlineProxyUrl(spec: ProxySpec): string {
  if (!hasCredentials(spec)) return proxyServer(spec);
  const user = encodeURIComponent(spec.username!);
  const pass = spec.password === undefined ? '' : `:${encodeURIComponent(spec.password)}`;
  return `${spec.scheme}://${user}${pass}@${hostPort(spec)}`;
}

/** Hides `user:pass@` of any URL in a text (error messages of libraries we call). */
export function maskCredentialsIn(text: string, spec?: ProxySpec): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***:***@');
  for (const secret of [spec?.password, spec?.password && encodeURIComponent(spec.password)]) {
    if (secret && secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}
