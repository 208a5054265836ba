import * as v from 'valibot';
import type { Kind } from '../../config/kinds.ts';
import { parseProxyUrl, PROXY_URL_ACCEPTS, type ProxySpec } from './proxy-url.ts';

/** The proxy URL schema, for settings (a string) and session metadata alike. */
export const proxySchema = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return parseProxyUrl(dataset.value);
    } catch (error) {
      addIssue({ message: `malformed proxy URL: ${(error as Error).message}` });
      return NEVER;
    }
  }),
) as v.GenericSchema<string, ProxySpec>;

export const proxyKind: Kind<ProxySpec> = { accepts: PROXY_URL_ACCEPTS, schema: proxySchema, detail: true };
