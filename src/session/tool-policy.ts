import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '../mcp-sdk.ts';
import { errorResult } from './error-result.ts';

// Runs client code in a node:vm inside this process: it can read other
// sessions' pages and reach `process`. Hidden unless the operator opts in.
export const UNSAFE_CODE_TOOL = 'browser_run_code_unsafe';

/** Tools that run script the user wrote (or a page's own WebMCP tool) in the page: it runs with a user gesture, as on the upstream. */
export const USER_SCRIPT_TOOLS = new Set(['browser_evaluate', UNSAFE_CODE_TOOL, 'browser_webmcp_call']);

/** Tools that leave the current tab's document for another (browser/leaving-tab.ts). */
export const NAVIGATION_TOOLS = new Set(['browser_navigate', 'browser_navigate_back', 'browser_navigate_forward']);

/** Tools that hand the page input, so its handlers run (browser/passkey-guard.ts); not the client's own script, which reads the page as it is. */
const INPUT_TOOLS = /^browser_(click|check|uncheck|drag|drop|fill_form|select_option|type|press_key|press_sequentially|keydown|keyup|hover|file_upload|handle_dialog|mouse_[a-z_]+|webmcp_call|resume)$/;

export function isInputTool(name: string): boolean {
  return INPUT_TOOLS.test(name);
}

/** Over stdio the one local user started the server and may run code in it, as with the upstream; over HTTP only when the operator says so. */
export function unsafeCodeAllowed(config: { allowUnsafeCode?: boolean | undefined; transport: string }): boolean {
  return config.allowUnsafeCode ?? config.transport === 'stdio';
}

export function visibleUpstreamTools(tools: Tool[], allowUnsafeCode: boolean): Tool[] {
  return allowUnsafeCode ? tools : tools.filter((t) => t.name !== UNSAFE_CODE_TOOL);
}

/**
 * A call this session does not run: a hidden tool (an MCP error, as for an
 * unknown tool), or any browser tool once the session's files passed their
 * limit (outputMaxBytes: undefined when the directory is not the session's own).
 */
export function refusal(name: string, session: { unsafeCodeAllowed: boolean; outputBytes: number; outputMaxBytes: number | undefined }): CallToolResult | undefined {
  if (session.outputMaxBytes !== undefined && session.outputBytes > session.outputMaxBytes)
    return errorResult(
      `This session's files take ${session.outputBytes} bytes, more than --session-output-max-bytes (${session.outputMaxBytes}): its browser tools are stopped. Read what you need with resources/read, end the session and start a new one, or ask the operator to raise the limit.`,
    );
  if (name === UNSAFE_CODE_TOOL && !session.unsafeCodeAllowed)
    throw new McpError(ErrorCode.InvalidParams, `Tool ${UNSAFE_CODE_TOOL} is disabled on this server: it runs code inside the server process. The operator can enable it with --allow-unsafe-code.`);
  return undefined;
}
