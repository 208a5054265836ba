import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// A line is cut to no less than this when a few overlong lines (a page title
// or URL of megabytes, a one-line evaluate result) push a result past the cap.
const LINE_KEPT = 2000;

/**
 * Bounds the text of a tool result: a snapshot of a 200,000-node page or a
 * 100 MB evaluate result would otherwise flood the client (and its model).
 * Overlong lines are shortened first, so a page whose title alone is
 * megabytes still shows its snapshot; what is still over the cap is cut at
 * the end, keeping the head, which holds the page facts and the first elements.
 */
export function capResult(result: CallToolResult, maxChars: number): CallToolResult {
  const total = result.content.reduce((sum, item) => sum + (item.type === 'text' ? item.text.length : 0), 0);
  if (total <= maxChars) return result;
  const shortened = shortenLongLines(result.content, total - maxChars);
  let budget = maxChars;
  let cut = shortened.cut;
  const content = shortened.content.map((item) => {
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
  const note = `\n\n[Cut: ${cut} more characters of this result were not sent (--max-result-chars ${maxChars}). For a big page, save the snapshot to a file with browser_snapshot's filename and read it as a resource.]`;
  return { ...result, content: [...content, { type: 'text', text: note }] };
}

type Content = CallToolResult['content'];

const marker = (cut: number) => `… [${cut} more characters of this line cut]`;

/**
 * Lines longer than a common length cut to it (the highest length, no lower
 * than LINE_KEPT, that still saves `excess`), each ending in a marker; how
 * many characters they lost.
 */
function shortenLongLines(content: Content, excess: number): { content: Content; cut: number } {
  const lines = content.map((item) => (item.type === 'text' ? item.text.split('\n') : null));
  const lengths = lines.flatMap((itemLines) => itemLines?.map((line) => line.length) ?? []);
  const saved = (level: number) => lengths.reduce((sum, length) => sum + (length > level ? length - level - marker(length - level).length : 0), 0);
  if (saved(LINE_KEPT) <= 0) return { content, cut: 0 };
  let low = LINE_KEPT;
  let high = lengths.reduce((max, length) => Math.max(max, length), 0);
  // The highest level that still saves the excess (or LINE_KEPT, saving what it can).
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (saved(mid) >= excess) low = mid;
    else high = mid - 1;
  }
  let cut = 0;
  const shorten = (line: string) => {
    if (line.length <= low) return line;
    cut += line.length - low;
    return line.slice(0, low) + marker(line.length - low);
  };
  return { content: content.map((item, i) => (item.type === 'text' ? { ...item, text: lines[i]!.map(shorten).join('\n') } : item)), cut };
}
