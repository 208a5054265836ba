// Apart from src/mcp-sdk.ts: the early stdio answer needs this check before
// playwright-core (and so the bundled SDK) is loaded.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The SDK's isInitializeRequest: an `initialize` whose params have the fields InitializeRequestSchema requires. */
export function isInitializeRequest(value: unknown): value is { method: 'initialize'; params: { protocolVersion: string } } {
  if (!isObject(value) || value.method !== 'initialize' || !isObject(value.params)) return false;
  const { protocolVersion, capabilities, clientInfo } = value.params;
  return typeof protocolVersion === 'string' && isObject(capabilities) && isObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string';
}
