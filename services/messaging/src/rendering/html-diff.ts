/**
 * The `content_html_diff` of GET /messages/{id}/history: the newer rendering of a message with what an edit removed
 * and added marked, word by word, in Zulip's classes (`highlight_text_deleted`, `highlight_text_inserted`). The
 * markup is the newer version's: removed tags are left out, removed words are shown where they stood.
 */

/** Tags, runs of non-space text, and runs of space: the units the diff compares. */
const TOKEN = /<[^>]*>|[^<\s]+|\s+/g;

/** Above this many cells, the changed middle is marked as removed and added as a whole (the table would be large). */
const MAX_TABLE = 1_000_000;

type Op = 'same' | 'removed' | 'added';

function tokens(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

/** Longest common subsequence of the two token lists, as a sequence of operations. */
function diffTokens(a: readonly string[], b: readonly string[]): [Op, string][] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: [Op, string][] = a.slice(0, start).map((t) => ['same', t]);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_TABLE) {
    for (const t of midA) ops.push(['removed', t]);
    for (const t of midB) ops.push(['added', t]);
  } else {
    // lengths[i * (m + 1) + j]: LCS length of midA[i..] and midB[j..].
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lengths[i * width + j] =
          midA[i] === midB[j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push(['same', midA[i++]!]);
        j++;
      } else if (i < n && (j === m || lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)) {
        // What was removed comes before what replaced it.
        ops.push(['removed', midA[i++]!]);
      } else {
        ops.push(['added', midB[j++]!]);
      }
    }
  }
  for (const t of a.slice(endA)) ops.push(['same', t]);
  return ops;
}

const CLASS: Record<Exclude<Op, 'same'>, string> = {
  removed: 'highlight_text_deleted',
  added: 'highlight_text_inserted',
};

export function highlightHtmlDifferences(before: string, after: string): string {
  if (before === after) return after;
  let out = '';
  type Run = { op: Exclude<Op, 'same'>; text: string };
  let run = null as Run | null;
  const flush = () => {
    if (run) out += `<span class="${CLASS[run.op]}">${run.text}</span>`;
    run = null;
  };
  for (const [op, token] of diffTokens(tokens(before), tokens(after))) {
    if (token.startsWith('<')) {
      // The newer version's markup: its tags stay, tags only the older version had go.
      if (op === 'removed') continue;
      flush();
      out += token;
    } else if (op === 'same') {
      flush();
      out += token;
    } else {
      if (run?.op !== op) flush();
      run = run ?? { op, text: '' };
      run.text += token;
    }
  }
  flush();
  return out;
}
