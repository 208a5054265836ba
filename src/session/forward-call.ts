import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '../mcp-sdk.ts';
import type { LaunchClock } from '../browser/launch-clock.ts';
import { errorResult } from './error-result.ts';

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

/** Longer than any deadline of ours: the SDK's own request timeout (60 s by default) must never fire first. */
const SDK_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Runs `fire` after `ms` of the call's own time, counted from the later of the
 * call's start and the end of a browser launch (the first call of a session,
 * a build download, a machine under load): the upstream's timeouts do not
 * count its launch either. Returns the timer's cancel.
 */
export function afterCallTime(ms: number, launches: LaunchClock, fire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  const arm = (delay: number) => {
    if (disposed) return;
    timer = setTimeout(() => {
      const launch = launches.inFlight();
      if (launch) return void launch.then(() => arm(ms));
      const left = launches.endedAt() + ms - performance.now();
      if (left > 0) arm(left);
      else fire();
    }, delay);
  };
  arm(ms);
  return () => {
    disposed = true;
    clearTimeout(timer);
  };
}

/**
 * When a call still under way is checked for a current tab that never yields
 * (stuck-script-watch.ts): once it has outlived the upstream's own deadline
 * by the margin, where that comes before its deadline. The upstream answers
 * most calls on such a tab at its deadline, and the hang check follows; an
 * evaluate, a navigate or a long wait is not bounded by it, and their
 * deadline (63 s by default) would pass the 60 s an SDK client waits.
 */
export function currentTabCheckMs(deadlineMs: number): number | undefined {
  const at = UPSTREAM_CALL_DEADLINE_MS + MARGIN_MS;
  return deadlineMs > at + MARGIN_MS ? at : undefined;
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
  launches: LaunchClock,
): Promise<CallToolResult> {
  const progressToken = params._meta?.progressToken;
  const { _meta: _clientMeta, ...call } = params;
  const deadline = new AbortController();
  const disarm = afterCallTime(deadlineMs, launches, () => deadline.abort());
  const pending = upstream.callTool(call, undefined, {
    // Aborting sends the upstream notifications/cancelled, as the client's own cancel does.
    signal: AbortSignal.any([extra.signal, deadline.signal]),
    timeout: SDK_TIMEOUT_MS,
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
    if (!deadline.signal.aborted || extra.signal.aborted) throw error;
    return errorResult(`Timeout ${deadlineMs}ms exceeded: ${params.name} did not finish (the page may be stuck); the bridge cancelled it so the session can go on.`);
  } finally {
    disarm();
  }
}
