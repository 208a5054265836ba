import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserBinary } from '../../browser/binary.ts';
import type { Config } from '../../config/settings.ts';

/** What a local tool may read about the session that calls it. */
export interface SessionFacts {
  id: string;
  transport: Config['transport'];
  config: Config;
  binary: BrowserBinary;
  outputDir: string;
  localToolNames: string[];
  upstreamToolCount(): number | undefined;
  browserRunning(): boolean;
  /** The session's launch profile (stealth flags and seed, sandbox, console fallback). */
  browserProfile(): Record<string, unknown>;
  /** The session's CDP URL and port, or `{enabled: false}`. */
  cdp(): Record<string, unknown>;
  /** The HTTP warm pool (size, ready, launching, taken), or null without one. */
  pool?(): Record<string, unknown> | null;
  /** Under --shared-browser-context over HTTP: the sessions sharing the one browser context, or null. */
  shared?(): Record<string, unknown> | null;
  /** The session's output dir: bytes used, cap, whether it goes with the session. */
  files?(): Record<string, unknown>;
  /** Proxy (masked), GeoIP match, profile, extensions and context options of the session. */
  identity?(): Record<string, unknown>;
}

export interface LocalTool {
  schema: Tool;
  run(facts: SessionFacts): Record<string, unknown>;
}

export function defineLocalTool(name: string, title: string, description: string, run: LocalTool['run']): LocalTool {
  return {
    schema: {
      name,
      title,
      description,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    run,
  };
}

/** JSON text for models, and the same object as structuredContent for programs. */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}
