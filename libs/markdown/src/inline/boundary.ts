// Mentions and channel links start after whitespace or one of ' " ( { [ / <, or at the very start.
const MENTION_BOUNDARY = /[\s'"({[/<]/u;

export function mentionMayStartAt(src: string, pos: number): boolean {
  return pos === 0 || MENTION_BOUNDARY.test(src.charAt(pos - 1));
}
