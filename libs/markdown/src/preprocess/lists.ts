import { parseFenceLine } from './fence-syntax.js';

const LIST_ITEM = /^[ ]*([*+-]|\d\.)[ ]+(.*)/;

/**
 * Zulip lets a list hang directly off a line of text: a blank line is inserted before a list item
 * that follows a non-item line, and between items of different kinds, outside code fences.
 */
export function separateHangingLists(lines: readonly string[]): string[] {
  const out: string[] = [];
  const open: { fence: string; isCode: boolean }[] = [];
  let inCode = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out.push(line);
    const fence = parseFenceLine(line);
    if (fence !== undefined) {
      const closesLast = fence.lang === undefined && open[open.length - 1]?.fence === fence.fence;
      if (closesLast) open.pop();
      else open.push({ fence: fence.fence, isCode: fence.lang !== 'quote' && fence.lang !== 'quoted' });
      inCode = open.some((f) => f.isCode);
    }
    const next = lines[i + 1];
    if (next === undefined || inCode || line === '') continue;
    const current = LIST_ITEM.exec(line);
    const following = LIST_ITEM.exec(next);
    if (following === null) continue;
    const changesKind = current !== null && (current[1]!.length === 1) !== (following[1]!.length === 1);
    if (current === null || changesKind) out.push('');
  }
  return out;
}
