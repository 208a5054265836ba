// Sent to the client at initialize; models read it to decide how to use the tools.
export const INSTRUCTIONS = [
  'This server drives a real Chromium browser (a stealth build by default) through the Playwright MCP tools.',
  'Start with browser_navigate, then call browser_snapshot to see the page as an accessibility tree with element refs (e1, e2, ...);',
  'pass a ref as `target` to browser_click, browser_type and similar tools. Screenshots are for looking, snapshots are for acting.',
  'browser_close ends the browser; the next call starts a fresh one.',
  'stealth_binary_info and stealth_bridge_info report which browser build and server version this session runs on.',
].join(' ');
