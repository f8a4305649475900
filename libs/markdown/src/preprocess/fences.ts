import { renderCodeBlock } from '../code-block.js';
import { renderDisplayMath } from '../math.js';
import type { Stash } from '../stash.js';
import { parseFenceLine } from './fence-syntax.js';

// Like Zulip, fences are resolved before block parsing: code/math become stashed HTML, quotes `> ` lines.

type Kind = 'code' | 'math' | 'quote' | 'spoiler';

interface Frame {
  kind: Kind | 'outer';
  fence: string;
  lang: string | undefined;
  header: string | undefined;
  lines: string[];
}

const SPOILER_OPEN = '<div class="spoiler-block"><div class="spoiler-header">';
const SPOILER_MIDDLE = '</div><div class="spoiler-content" aria-hidden="true">';
const SPOILER_CLOSE = '</div></div>';

function kindOf(lang: string | undefined): Kind {
  if (lang === 'quote' || lang === 'quoted') return 'quote';
  if (lang === 'math') return 'math';
  if (lang === 'spoiler') return 'spoiler';
  return 'code';
}

export function processFences(lines: readonly string[], stash: Stash, defaultLanguage?: string): string[] {
  const output: string[] = [];
  const stack: Frame[] = [{ kind: 'outer', fence: '', lang: undefined, header: undefined, lines: output }];

  const openOrAppend = (line: string, into: string[], fallbackLanguage: string | undefined): void => {
    const fence = parseFenceLine(line);
    if (fence === undefined) {
      into.push(line);
      return;
    }
    const lang = (fence.lang ?? fallbackLanguage)?.toLowerCase();
    stack.push({ kind: kindOf(lang), fence: fence.fence, lang, header: fence.header, lines: [] });
  };

  const format = (frame: Frame): string => {
    const text = frame.lines.join('\n');
    switch (frame.kind) {
      case 'code':
        return stash.store(renderCodeBlock(frame.lang, text), true);
      case 'math':
        return stash.store(renderDisplayMath(text), false);
      case 'quote':
        return frame.lines.map((line) => `> ${line}`).join('\n');
      default: {
        const parts = [stash.store(SPOILER_OPEN, true)];
        if (frame.header !== undefined) parts.push(frame.header);
        parts.push(stash.store(SPOILER_MIDDLE, true), text, stash.store(SPOILER_CLOSE, true));
        return parts.join('\n\n');
      }
    }
  };

  const close = (): void => {
    const frame = stack.pop()!;
    if (frame.lines.length === 0) return;
    const parent = stack[stack.length - 1]!;
    parent.lines.push('', ...format(frame).split('\n'), '');
  };

  for (const line of lines) {
    const top = stack[stack.length - 1]!;
    if (top.kind === 'outer') {
      openOrAppend(line, output, defaultLanguage);
    } else if (line.trimEnd() === top.fence) {
      close();
    } else if (top.kind === 'quote') {
      openOrAppend(line, top.lines, defaultLanguage);
    } else if (top.kind === 'spoiler') {
      openOrAppend(line, top.lines, undefined);
    } else {
      // Code and math keep their lines verbatim, minus trailing whitespace.
      top.lines.push(line.trimEnd());
    }
  }
  while (stack.length > 1) close();
  return output;
}
