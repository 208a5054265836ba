import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// The upstream replaces the values of --secrets and of the URL parameters
// named by --redact-url-params in the text of its own results (its Context's
// redactSecrets). The notes this bridge adds name pages and requests by URL
// too, so a result is redacted again as a whole, by the same rules. Twice is
// the same as once: what was replaced no longer matches.

interface RedactConfig {
  secrets?: Record<string, string>;
  redactUrlParams?: string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The upstream's own redaction for this config, or undefined when it redacts nothing. */
export function resultRedaction(config: RedactConfig): ((result: CallToolResult) => CallToolResult) | undefined {
  const secrets = Object.entries(config.secrets ?? {}).filter(([, value]) => value);
  const params = config.redactUrlParams?.filter(Boolean) ?? [];
  if (!secrets.length && !params.length) return undefined;
  // The upstream's pattern (0.0.86 context.ts), character for character.
  const urlParams = params.length ? new RegExp(`([?&#](?:${params.map(escapeRegExp).join('|')})=)[^&#\\s"'<>()\\[\\]\`\\\\]+`, 'gi') : undefined;
  const redact = (text: string): string => {
    for (const [name, value] of secrets) text = text.replaceAll(value, `<secret>${name}</secret>`);
    return urlParams ? text.replace(urlParams, '$1<redacted>') : text;
  };
  return (result) => ({ ...result, content: result.content.map((item) => (item.type === 'text' ? { ...item, text: redact(item.text) } : item)) });
}
