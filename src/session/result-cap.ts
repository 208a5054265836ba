import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * Bounds the text of a tool result: a snapshot of a 200,000-node page or a
 * 100 MB evaluate result would otherwise flood the client (and its model).
 * The cut keeps the head, which holds the page facts and the first elements.
 */
export function capResult(result: CallToolResult, maxChars: number): CallToolResult {
  let budget = maxChars;
  let cut = 0;
  const content = result.content.map((item) => {
    if (item.type !== 'text') return item;
    if (item.text.length <= budget) {
      budget -= item.text.length;
      return item;
    }
    cut += item.text.length - budget;
    const text = item.text.slice(0, budget);
    budget = 0;
    return { ...item, text };
  });
  if (!cut) return result;
  const note = `\n\n[Cut: ${cut} more characters of this result were not sent (--max-result-chars ${maxChars}). For a big page, save the snapshot to a file with browser_snapshot's filename and read it as a resource.]`;
  return { ...result, content: [...content, { type: 'text', text: note }] };
}
