// The npm package's programmatic entry: Playwright MCP's `createConnection`, on this server.
export { createConnection } from './create-connection.ts';
