import { defineLocalTool } from './local-tool.ts';

export const stealthBinaryInfo = defineLocalTool(
  'stealth_binary_info',
  'Stealth browser build info',
  'Which browser build this server drives: engine, executable path, version read from the binary, where it came from (custom, cache, playwright, system), cache directory, whether the managed build is installed (it is downloaded at the first browser launch), how it was verified, and the licence state (key masked).',
  ({ binary }) => binary.toJSON(),
);
