import type { StateCore, Token } from 'markdown-it';

/** A piece of a text token to replace with `token`. */
export interface Replacement {
  start: number;
  end: number;
  token: Token;
}

/**
 * What borders a text token, as Zulip's patterns would see it: `''` at the edge of the paragraph,
 * `'\n'` next to a line break, and a non-space stand-in next to any other element.
 */
export interface Context {
  before: string;
  after: string;
}

function neighbour(token: Token | undefined): string {
  if (token === undefined) return '';
  return token.type === 'softbreak' || token.type === 'hardbreak' ? '\n' : '\u0001';
}

/**
 * Runs `find` over every text token that Zulip would still format (not link text, not the text of
 * an earlier match) and splices in the tokens it returns, in the order of Zulip's late patterns.
 */
export function replaceInText(state: StateCore, find: (text: string, context: Context) => Replacement[]): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || block.children === null) continue;
    const children = block.children;
    const out: Token[] = [];
    let linkDepth = 0;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.type === 'link_open') linkDepth++;
      if (child.type === 'link_close') linkDepth--;
      if (child.type !== 'text' || linkDepth > 0 || child.meta?.atomic === true) {
        out.push(child);
        continue;
      }
      const context = { before: neighbour(children[i - 1]), after: neighbour(children[i + 1]) };
      const replacements = find(child.content, context);
      if (replacements.length === 0) {
        out.push(child);
        continue;
      }
      let pos = 0;
      for (const { start, end, token } of replacements) {
        if (start > pos) out.push(textToken(state, child.content.slice(pos, start), child.level));
        token.level = child.level;
        out.push(token);
        pos = end;
      }
      if (pos < child.content.length) out.push(textToken(state, child.content.slice(pos), child.level));
    }
    block.children = out;
  }
}

function textToken(state: StateCore, content: string, level: number): Token {
  const token = new state.Token('text', '', 0);
  token.content = content;
  token.level = level;
  return token;
}
