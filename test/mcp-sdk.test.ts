import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import * as ours from '../src/mcp-sdk.ts';

// src/mcp-sdk.ts runs the process on the SDK bundled in playwright-core and
// rebuilds the few pieces that bundle does not export. Each stand-in must
// accept, refuse and say exactly what the SDK's own does.

const META = { _meta: { progressToken: 1 } };
const INPUTS: unknown[] = [
  { method: 'resources/list' },
  { method: 'resources/list', params: {} },
  { method: 'resources/list', params: { cursor: 'c' } },
  { method: 'resources/list', params: { cursor: 5 } },
  { method: 'resources/list', params: META },
  { method: 'resources/templates/list' },
  { method: 'resources/templates/list', params: { cursor: 'c' } },
  { method: 'resources/templates/list', params: { cursor: 5 } },
  { method: 'resources/read' },
  { method: 'resources/read', params: {} },
  { method: 'resources/read', params: { uri: 'file:///x' } },
  { method: 'resources/read', params: { uri: 7 } },
  { method: 'resources/read', params: { uri: 'file:///x', ...META, extra: true } },
  { method: 'notifications/tools/list_changed' },
  { method: 'notifications/tools/list_changed', params: {} },
  { method: 'notifications/tools/list_changed', params: META },
  { method: 'tools/list' },
  { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'a', version: '1' } } },
  { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'a' } } },
  { method: 'initialize', params: { protocolVersion: 1, capabilities: {}, clientInfo: { name: 'a', version: '1' } } },
  { method: 'initialize', params: { protocolVersion: '2025-06-18', clientInfo: { name: 'a', version: '1' } } },
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 'x', capabilities: { roots: {} }, clientInfo: { name: 'a', version: '1', title: 't' } } },
  null,
  'initialize',
  [],
];

describe('the SDK stand-ins (src/mcp-sdk.ts) against the SDK', () => {
  for (const name of ['ListResourcesRequestSchema', 'ListResourceTemplatesRequestSchema', 'ReadResourceRequestSchema', 'ToolListChangedNotificationSchema'] as const) {
    test(`${name} accepts and refuses what the SDK's does`, () => {
      for (const input of INPUTS) assert.equal(ours[name].safeParse(input).success, sdk[name].safeParse(input).success, JSON.stringify(input));
    });
  }

  test('isInitializeRequest answers as the SDK\'s', () => {
    for (const input of INPUTS) assert.equal(ours.isInitializeRequest(input), sdk.isInitializeRequest(input), JSON.stringify(input));
  });

  test('error codes and McpError read as the SDK\'s', () => {
    for (const [key, code] of Object.entries(ours.ErrorCode)) assert.equal(code, sdk.ErrorCode[key as keyof typeof sdk.ErrorCode], key);
    const [a, b] = [new ours.McpError(ours.ErrorCode.InvalidParams, 'bad', { x: 1 }), new sdk.McpError(sdk.ErrorCode.InvalidParams, 'bad', { x: 1 })];
    assert.deepEqual([a.message, a.name, a.code, a.data], [b.message, b.name, b.code, b.data]);
  });
});
