import type { LocalTool } from './local-tool.ts';
import { stealthBinaryInfo } from './stealth-binary-info.ts';
import { stealthBridgeInfo } from './stealth-bridge-info.ts';

export const localTools: ReadonlyMap<string, LocalTool> = new Map(
  [stealthBinaryInfo, stealthBridgeInfo].map((tool) => [tool.schema.name, tool]),
);
