import * as v from 'valibot';
import { checkContextOptions, contextOptionsKind } from '../browser/context-options.ts';
import { PROFILE_NAME_ACCEPTS, validProfileName } from '../browser/profiles/profile-dir.ts';
import { proxySchema } from '../browser/proxy/proxy-kind.ts';
import { boolean } from '../config/kinds.ts';
import type { Config } from '../config/settings.ts';

/** The initialize metadata key a client uses to choose per-session settings. */
export const SESSION_META_KEY = 'stealth-playwright-mcp/session';

// One schema per field, as metadata (typed JSON) and as a header (a string).
const profileName = v.pipe(v.string(), v.check(validProfileName, `a profile name is ${PROFILE_NAME_ACCEPTS}`));
const contextOptions = v.rawTransform<unknown, ReturnType<typeof checkContextOptions>>(({ dataset, addIssue, NEVER }) => {
  try {
    return checkContextOptions(dataset.value);
  } catch (error) {
    addIssue({ message: (error as Error).message });
    return NEVER;
  }
});

const fields = {
  headless: { meta: v.boolean(), header: boolean.schema },
  cdpEnabled: { meta: v.boolean(), header: boolean.schema },
  proxy: { meta: proxySchema, header: proxySchema },
  geoipProxyMatch: { meta: v.boolean(), header: boolean.schema },
  profile: { meta: profileName, header: profileName },
  contextOptions: { meta: v.pipe(v.unknown(), contextOptions), header: contextOptionsKind.schema },
} as const;

/** Per-session choices; `proxy` is the session's PLAYWRIGHT_MCP_PROXY_SERVER. */
export type SessionOverrides = Partial<Pick<Config, 'headless' | 'cdpEnabled' | 'geoipProxyMatch' | 'contextOptions'>> & {
  proxy?: NonNullable<Config['proxyServer']>;
  profile?: string;
};

/** `headless` → `x-stealth-session-headless`; `cdpEnabled` → `x-stealth-session-cdp-enabled`. */
export function headerName(field: string): string {
  return `x-stealth-session-${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export const SESSION_HEADERS = Object.keys(fields).map(headerName);

/** The fields a client set for its session (none: the process defaults). */
export function ownFields(overrides: SessionOverrides): string[] {
  return Object.entries(overrides).flatMap(([field, value]) => (value === undefined ? [] : [field]));
}

export class SessionOverridesError extends Error {
  override name = 'SessionOverridesError';
}

function failure(where: string, issues: v.BaseIssue<unknown>[]): SessionOverridesError {
  const issue = issues[0]!;
  const path = issue.path?.map((p) => String(p.key)).join('.');
  return new SessionOverridesError(`Invalid session setting ${where}${path ? `.${path}` : ''}: ${issue.message}.`);
}

const metaSchema = v.strictObject(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, v.optional(f.meta)])));

/**
 * Reads per-session settings from initialize `_meta` and, for clients that
 * cannot set `_meta`, from request headers. The fields may sit under
 * `_meta["stealth-playwright-mcp/session"]` or flat at the top of `_meta`
 * (`cdpEnabled`, `headless`, ...); the namespaced value wins, a flat one wins
 * over a header. Other top-level `_meta` keys belong to other software and are ignored.
 */
export function readSessionOverrides(allMeta: Record<string, unknown> | undefined, headers: Record<string, string | string[] | undefined>): SessionOverrides {
  const meta = allMeta?.[SESSION_META_KEY];
  const out: Record<string, unknown> = {};
  for (const [field, f] of Object.entries(fields)) {
    const raw = headers[headerName(field)];
    if (raw === undefined) continue;
    const result = v.safeParse(f.header, Array.isArray(raw) ? raw.join(',') : raw);
    if (!result.success) throw failure(`header ${headerName(field)}`, result.issues);
    out[field] = result.output;
  }
  for (const [field, f] of Object.entries(fields)) {
    if (allMeta?.[field] === undefined) continue;
    const result = v.safeParse(f.meta, allMeta[field]);
    if (!result.success) throw failure(`_meta.${field}`, result.issues);
    out[field] = result.output;
  }
  if (meta !== undefined) {
    const result = v.safeParse(metaSchema, meta);
    if (!result.success) throw failure(`_meta["${SESSION_META_KEY}"]`, result.issues);
    for (const [field, value] of Object.entries(result.output)) if (value !== undefined) out[field] = value;
  }
  return out as SessionOverrides;
}
