import { defineLocalTool } from './local-tool.ts';

export const stealthBinaryInfo = defineLocalTool(
  'stealth_binary_info',
  'Stealth browser build info',
  'Which browser build this server drives: engine, executable path, version read from the binary, where it came from (custom, cache, playwright, system), cache directory and whether a managed build is installed.',
  ({ binary }) => ({
    engine: binary.engine,
    executablePath: binary.executablePath,
    version: binary.version,
    versionOutput: binary.versionOutput,
    source: binary.source,
    cacheDir: binary.cacheDir,
    installed: binary.installed,
  }),
);
