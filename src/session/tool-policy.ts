import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// Runs client code in a node:vm inside this process: it can read other
// sessions' pages and reach `process`. Hidden unless the operator opts in.
export const UNSAFE_CODE_TOOL = 'browser_run_code_unsafe';

/** Tools that run script the user wrote (or a page's own WebMCP tool) in the page: it runs with a user gesture, as on the upstream. */
export const USER_SCRIPT_TOOLS = new Set(['browser_evaluate', UNSAFE_CODE_TOOL, 'browser_webmcp_call']);

/** Tools that hand the page input, so its handlers run (browser/passkey-guard.ts); not the client's own script, which reads the page as it is. */
const INPUT_TOOLS = /^browser_(click|check|uncheck|drag|drop|fill_form|select_option|type|press_key|press_sequentially|keydown|keyup|hover|file_upload|handle_dialog|mouse_[a-z_]+|webmcp_call|resume)$/;

export function isInputTool(name: string): boolean {
  return INPUT_TOOLS.test(name);
}

export function visibleUpstreamTools(tools: Tool[], allowUnsafeCode: boolean): Tool[] {
  return allowUnsafeCode ? tools : tools.filter((t) => t.name !== UNSAFE_CODE_TOOL);
}

export function isHidden(name: string, allowUnsafeCode: boolean): boolean {
  return name === UNSAFE_CODE_TOOL && !allowUnsafeCode;
}
