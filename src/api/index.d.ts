// Types of the programmatic entry: Playwright MCP's own signature (its config type, the MCP SDK's Server).
import type { createConnection as playwrightMcpCreateConnection } from '@playwright/mcp';

export declare const createConnection: typeof playwrightMcpCreateConnection;
