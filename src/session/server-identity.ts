import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../package-info.ts';
import { INSTRUCTIONS } from './instructions.ts';

// What every session's Server says about itself at initialize; the early
// stdio answer (transport/early-stdio.ts) must say exactly the same.
export const SERVER_INFO = { name: PACKAGE_NAME, version: PACKAGE_VERSION };
// resources: the files a session's tools wrote (session/files).
export const SERVER_CAPABILITIES: ServerCapabilities = { tools: { listChanged: true }, resources: { listChanged: true } };
export const SERVER_OPTIONS = { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS };
