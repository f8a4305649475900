import type { Rendered, Renderer } from './render.js';
import { escapeHtml } from './text.js';

/** Interim renderer until @confab/markdown is merged: escaped text in paragraphs, nothing resolved. */
export class PlainRenderer implements Renderer {
  async render(_realm: unknown, content: string): Promise<Rendered> {
    const html = content
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
      .join('\n');
    return {
      html,
      mentionedUserIds: [],
      mentionedGroupIds: [],
      wildcards: { channel: false, topic: false },
      isMeMessage: false,
      linkedUploadPaths: [],
      hasLink: false,
      hasImage: false,
    };
  }
}
