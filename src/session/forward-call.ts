import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, isMcpError, type Client } from '../mcp-sdk.ts';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// The upstream's own deadline for one tool call (browserBackend.callTool).
const UPSTREAM_CALL_DEADLINE_MS = 30_000;
const MARGIN_MS = 3000;

/**
 * How long a call may take before the bridge answers for it: the longest of
 * the upstream's own deadlines that can apply, plus a margin. Some page states
 * (a navigation racing an accepted beforeunload) keep an upstream call past
 * all of them; the client still gets an answer.
 */
export function callDeadlineMs(name: string, args: Record<string, unknown> | undefined, navigationTimeoutMs: number): number {
  const waitSeconds = name === 'browser_wait_for' && typeof args?.time === 'number' ? args.time : 0;
  return Math.max(UPSTREAM_CALL_DEADLINE_MS, navigationTimeoutMs, waitSeconds * 1000 + UPSTREAM_CALL_DEADLINE_MS) + MARGIN_MS;
}

/**
 * Forwards a tool call unchanged: the client's cancellation aborts the upstream
 * call, and upstream progress reaches the client under the client's own token.
 */
export async function forwardToolCall(
  upstream: Client,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } },
  extra: Extra,
  deadlineMs: number,
): Promise<CallToolResult> {
  const progressToken = params._meta?.progressToken;
  const { _meta: _clientMeta, ...call } = params;
  const pending = upstream.callTool(call, undefined, {
    signal: extra.signal,
    timeout: deadlineMs,
    ...(progressToken === undefined
      ? {}
      : {
          onprogress: (progress) =>
            void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => {}),
        }),
  });
  try {
    return (await pending) as CallToolResult;
  } catch (error) {
    // The SDK cancels the upstream call (notifications/cancelled) when its timeout fires.
    if (!isMcpError(error, ErrorCode.RequestTimeout) || extra.signal.aborted) throw error;
    const text = `### Error\nTimeout ${deadlineMs}ms exceeded: ${params.name} did not finish (the page may be stuck); the bridge cancelled it so the session can go on.`;
    return { content: [{ type: 'text', text }], isError: true };
  }
}
