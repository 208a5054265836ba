import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool result that failed, worded as the upstream words its own (`### Error` then the reason), so a client reads ours and its alike. */
export function errorResult(reason: string): CallToolResult {
  return { content: [{ type: 'text', text: `### Error\n${reason}` }], isError: true };
}
