import type { ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Errors on the MCP endpoint are JSON-RPC bodies so MCP clients can show them. */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id }, headers);
}

// JSON-RPC error codes used by the endpoint (the MCP SDK's own choices).
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
  sessionNotFound: -32001,
} as const;
