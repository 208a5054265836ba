import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// Runs client code in a node:vm inside this process: it can read other
// sessions' pages and reach `process`. Hidden unless the operator opts in.
export const UNSAFE_CODE_TOOL = 'browser_run_code_unsafe';

export function visibleUpstreamTools(tools: Tool[], allowUnsafeCode: boolean): Tool[] {
  return allowUnsafeCode ? tools : tools.filter((t) => t.name !== UNSAFE_CODE_TOOL);
}

export function isHidden(name: string, allowUnsafeCode: boolean): boolean {
  return name === UNSAFE_CODE_TOOL && !allowUnsafeCode;
}
