import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// browser_get_config prints the config the upstream runs the session with.
// The upstream is handed `browser.isolated: false` so that it takes the
// context this bridge launched (with `isolated` its createConnection asks the
// context getter for a context of its own, which it cannot give). What a user
// gets is a profile in memory unless one is named (--user-data-dir, a
// profile): the printed value says `true` then, as the upstream's does under
// --isolated, and is left out for a profile on disk, as the upstream leaves it
// unset for its own persistent profile.

const RESULT = /(?<=^### Result\n)\{[\s\S]*?\n\}(?=\n###|\n?$)/m;

/** The result with `browser.isolated` as the session really has it; an error, a result that does not parse or an attached browser's (inMemory undefined), as it is. */
export function withIsolatedAsRun(result: CallToolResult, inMemory: boolean | undefined): CallToolResult {
  if (result.isError || inMemory === undefined) return result;
  return {
    ...result,
    content: result.content.map((item) => {
      if (item.type !== 'text') return item;
      const match = RESULT.exec(item.text);
      if (!match) return item;
      let config: { browser?: Record<string, unknown> };
      try {
        config = JSON.parse(match[0]) as typeof config;
      } catch {
        return item;
      }
      if (!config.browser) return item;
      if (inMemory) config.browser.isolated = true;
      else delete config.browser.isolated;
      return { ...item, text: item.text.slice(0, match.index) + JSON.stringify(config, null, 2) + item.text.slice(match.index + match[0].length) };
    }),
  };
}
