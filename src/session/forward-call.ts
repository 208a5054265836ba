import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// The upstream applies its own action and navigation timeouts; ours only
// guards against a call that never returns.
const UPSTREAM_CALL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * Forwards a tool call unchanged: the client's cancellation aborts the upstream
 * call, and upstream progress reaches the client under the client's own token.
 */
export async function forwardToolCall(
  upstream: Client,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } },
  extra: Extra,
): Promise<CallToolResult> {
  const progressToken = params._meta?.progressToken;
  const { _meta: _clientMeta, ...call } = params;
  const result = await upstream.callTool(call, undefined, {
    signal: extra.signal,
    timeout: UPSTREAM_CALL_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    ...(progressToken === undefined
      ? {}
      : {
          onprogress: (progress) =>
            void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => {}),
        }),
  });
  return result as CallToolResult;
}
