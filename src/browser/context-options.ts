import * as v from 'valibot';
import type { Kind } from '../config/kinds.ts';
import type { UpstreamConfig } from '../config/upstream.ts';

// The Playwright context options an operator (STEALTH_PLAYWRIGHT_MCP_CONTEXT_OPTIONS)
// or a client (session `contextOptions`) may set. An allow-list: anything
// else is refused by name, so a new Playwright option never slips through.
const size = v.strictObject({ width: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16384)), height: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16384)) });
const headerName = v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name'));
const headerValue = v.pipe(v.string(), v.maxLength(8192), v.regex(/^[^\r\n\0]*$/, 'no line breaks'));

const timezone = v.pipe(
  v.string(),
  v.check((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone such as Europe/Berlin'),
);

const PERMISSIONS = [
  'geolocation', 'midi', 'midi-sysex', 'notifications', 'camera', 'microphone', 'background-sync', 'ambient-light-sensor',
  'accelerometer', 'gyroscope', 'magnetometer', 'accessibility-events', 'clipboard-read', 'clipboard-write',
  'payment-handler', 'storage-access', 'local-network-access',
] as const;

const ALLOWED = {
  viewport: v.nullable(size),
  screen: size,
  userAgent: v.pipe(v.string(), v.nonEmpty(), v.maxLength(1024), v.regex(/^[^\r\n\0]*$/, 'no line breaks')),
  locale: v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 tag such as de-DE')),
  timezoneId: timezone,
  colorScheme: v.nullable(v.picklist(['light', 'dark', 'no-preference'])),
  reducedMotion: v.nullable(v.picklist(['reduce', 'no-preference'])),
  forcedColors: v.nullable(v.picklist(['active', 'none'])),
  contrast: v.nullable(v.picklist(['no-preference', 'more'])),
  geolocation: v.strictObject({
    latitude: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
    longitude: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
    accuracy: v.optional(v.pipe(v.number(), v.minValue(0))),
  }),
  permissions: v.array(v.picklist(PERMISSIONS)),
  extraHTTPHeaders: v.record(headerName, headerValue),
  httpCredentials: v.strictObject({
    username: v.string(),
    password: v.string(),
    origin: v.optional(v.string()),
    send: v.optional(v.picklist(['unauthorized', 'always'])),
  }),
  ignoreHTTPSErrors: v.boolean(),
  offline: v.boolean(),
  javaScriptEnabled: v.boolean(),
  bypassCSP: v.boolean(),
  deviceScaleFactor: v.pipe(v.number(), v.minValue(0.1), v.maxValue(10)),
  isMobile: v.boolean(),
  hasTouch: v.boolean(),
  acceptDownloads: v.boolean(),
  serviceWorkers: v.picklist(['allow', 'block']),
  strictSelectors: v.boolean(),
} as const;

// Refused with the reason: they touch the server's files or would bypass
// another setting that owns the same thing.
const DANGEROUS: Record<string, string> = {
  recordHar: 'it writes files at a path of its choosing on the server',
  recordVideo: 'it writes files at a path of its choosing on the server',
  storageState: 'it reads a file of its choosing on the server (use a persistent profile instead)',
  clientCertificates: 'it reads certificate and key files of its choosing on the server',
  proxy: 'proxies are set with PLAYWRIGHT_MCP_PROXY_SERVER or the session field `proxy`',
  baseURL: 'the browser tools take full URLs',
  logger: 'it is a function, not data',
};

export type ContextOptions = { [K in keyof typeof ALLOWED]?: v.InferOutput<(typeof ALLOWED)[K]> };

export const ALLOWED_CONTEXT_OPTIONS = Object.keys(ALLOWED);

export class ContextOptionsError extends Error {
  override name = 'ContextOptionsError';
}

/** Validates a parsed object; the error names the key (values are not echoed). */
export function checkContextOptions(value: unknown): ContextOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ContextOptionsError('must be a JSON object of Playwright context options');
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (DANGEROUS[key]) throw new ContextOptionsError(`key "${key}" is not allowed: ${DANGEROUS[key]}`);
    const schema = (ALLOWED as Record<string, v.GenericSchema>)[key];
    if (!schema) throw new ContextOptionsError(`key "${key}" is not an allowed context option (allowed: ${ALLOWED_CONTEXT_OPTIONS.join(', ')})`);
    const result = v.safeParse(schema, item);
    if (!result.success) {
      const issue = result.issues[0];
      const at = issue.path?.map((p) => String(p.key)).join('.');
      throw new ContextOptionsError(`key "${key}${at ? `.${at}` : ''}" is invalid: ${issue.message}`);
    }
    out[key] = result.output;
  }
  return out as ContextOptions;
}

/** STEALTH_PLAYWRIGHT_MCP_CONTEXT_OPTIONS: a JSON object, checked as above. */
export const contextOptionsKind: Kind<ContextOptions> = {
  detail: true,
  accepts: `a JSON object of Playwright context options (${ALLOWED_CONTEXT_OPTIONS.join(', ')})`,
  schema: v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return checkContextOptions(JSON.parse(dataset.value));
      } catch (error) {
        addIssue({ message: error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message });
        return NEVER;
      }
    }),
  ),
};

/** For info: credentials and header values are not shown. */
export function describeContextOptions(options: ContextOptions): Record<string, unknown> {
  const { httpCredentials, extraHTTPHeaders, ...rest } = options;
  return {
    ...rest,
    ...(httpCredentials ? { httpCredentials: { username: '***', password: '***', ...(httpCredentials.origin ? { origin: httpCredentials.origin } : {}) } } : {}),
    ...(extraHTTPHeaders ? { extraHTTPHeaders: Object.fromEntries(Object.keys(extraHTTPHeaders).map((k) => [k, '***'])) } : {}),
  };
}

/** Ours over the upstream's PLAYWRIGHT_MCP_* ones (viewport, user agent, …), before the launch plan. */
export function withContextOptions(upstream: UpstreamConfig, options: ContextOptions | undefined): UpstreamConfig {
  if (!options) return upstream;
  return { ...upstream, browser: { ...upstream.browser, contextOptions: { ...upstream.browser?.contextOptions, ...options } } };
}
