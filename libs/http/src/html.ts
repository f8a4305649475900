import { RawResponse } from './router.js';

/** Server-rendered pages (sign-up, confirmations): one look, and the headers that keep them out of frames and caches. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small self-contained HTML page; `body` is HTML, so callers escape what they put in it. */
export function htmlPage(status: number, title: string, body: string): RawResponse {
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body style="font-family: sans-serif; max-width: 36rem; margin: 4rem auto; line-height: 1.5">
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
  return new RawResponse(status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  });
}
