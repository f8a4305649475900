/**
 * Emoji in server-rendered HTML. The server marks a Unicode emoji as `<span class="emoji emoji-1f389" …>:tada:</span>`
 * (Zulip's markup, which Zulip's web app turns into sprite images); this client shows the emoji itself, from its code
 * points. Custom emoji already come as `<img class="emoji">`.
 */
const MARKED = /(<span\b[^>]*\bclass="emoji emoji-([0-9a-f]+(?:-[0-9a-f]+)*)"[^>]*>)([^<]*)(<\/span>)/g;

export function glyphOf(code: string): string | null {
  try {
    return String.fromCodePoint(...code.split('-').map((hex) => parseInt(hex, 16)));
  } catch {
    return null;
  }
}

export function emojify(html: string): string {
  if (!html.includes('emoji-')) return html;
  return html.replace(MARKED, (whole, open: string, code: string, _text: string, close: string) => {
    const glyph = glyphOf(code);
    return glyph === null ? whole : `${open}${glyph}${close}`;
  });
}
