import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// Runs client code in a node:vm inside this process: it can read other
// sessions' pages and reach `process`. Hidden unless the operator opts in.
export const UNSAFE_CODE_TOOL = 'browser_run_code_unsafe';

/** Tools that run script the user wrote (or a page's own WebMCP tool) in the page: it runs with a user gesture, as on the upstream. */
export const USER_SCRIPT_TOOLS = new Set(['browser_evaluate', UNSAFE_CODE_TOOL, 'browser_webmcp_call']);

export function visibleUpstreamTools(tools: Tool[], allowUnsafeCode: boolean): Tool[] {
  return allowUnsafeCode ? tools : tools.filter((t) => t.name !== UNSAFE_CODE_TOOL);
}

export function isHidden(name: string, allowUnsafeCode: boolean): boolean {
  return name === UNSAFE_CODE_TOOL && !allowUnsafeCode;
}
