import type { Express, Request, Response } from 'express';
import { isConfabError } from '@confab/errors';
import { IDENTITY_HEADER } from '@confab/identity';
import { deleteAttachment, downloadFile, listAttachments, uploadFile } from '../domain/attachments.js';
import { temporaryDownload, temporaryUploadUrl } from '../domain/temporary-uploads.js';
import { thumbnailTarget } from '../domain/thumbnails.js';
import type { MessagingDeps } from '../deps.js';
import { actorFor } from '../domain/actor.js';
import { actorRoute } from './actor-route.js';

export function attachmentRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'POST',
      path: '/user_uploads',
      auth: 'user',
      async handler({ actor, body }) {
        return uploadFile(domain, actor, body.files);
      },
    }),
    withActor({
      method: 'GET',
      path: '/user_uploads/{realm_id:int}/{filename:path}',
      auth: 'user',
      async handler({ actor, path }) {
        return temporaryUploadUrl(domain, actor, `${path.realm_id}/${path.filename}`);
      },
    }),
    withActor({
      method: 'GET',
      path: '/attachments',
      auth: 'user',
      async handler({ actor }) {
        return listAttachments(domain, actor);
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/attachments/{attachment_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteAttachment(domain, actor, path.attachment_id);
        return {};
      },
    }),
  ];
}

/**
 * Headers of every uploaded file served (as Zulip's nginx serves uploads, plus a sandbox): the browser takes the
 * declared type at its word instead of sniffing HTML or script in a text file or image, and a file opened inline runs
 * in a sandbox (a unique origin: no script, no access to the viewer's session or cookies) that loads nothing from
 * elsewhere. PDFs go without `sandbox`, which stops Chromium's PDF viewer from showing them at all; `default-src
 * 'none'` still keeps them from loading anything.
 */
export function uploadHeaders(contentType: string): Record<string, string> {
  const pdf = /^application\/pdf\b/i.test(contentType);
  return {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': pdf
      ? "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; object-src 'self'"
      : "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; media-src 'self'; sandbox",
  };
}

/**
 * GET /user_uploads/{path_id}: the file itself (outside /api/v1, fetched with the user's credentials through the
 * gateway), or a short HTML error as Zulip serves.
 */
export function mountFileDownloads(app: Express, deps: MessagingDeps): void {
  const send = (res: Response, file: { data: Buffer; contentType: string; disposition: string }, cache: string) =>
    res
      .status(200)
      .set(uploadHeaders(file.contentType))
      .setHeader('Content-Type', file.contentType)
      .setHeader('Content-Disposition', file.disposition)
      .setHeader('Cache-Control', cache)
      .send(file.data);
  // A temporary URL (GET /api/v1/user_uploads/{realm_id}/{filename}) needs no credentials while it is valid.
  app.get(/^\/user_uploads\/temporary\/([^/]+)\/[^/]+$/, async (req: Request, res: Response) => {
    try {
      const token = (req.params as Record<string, string>)[0] ?? '';
      send(res, await temporaryDownload(deps.domain, token), 'private, max-age=60');
    } catch (err) {
      if (isConfabError(err)) return res.status(err.status).type('text/html').send(`<p>${err.message}</p>`);
      deps.logger.error({ err }, 'serving an upload failed');
      return res.status(500).type('text/html').send('<p>Internal server error</p>');
    }
  });
  app.get(/^\/user_uploads\/(.+)$/, async (req: Request, res: Response) => {
    const html = (status: number, text: string) => res.status(status).type('text/html').send(`<p>${text}</p>`);
    const header = req.headers[IDENTITY_HEADER];
    const identity = deps.verifier.verify(typeof header === 'string' ? header : undefined);
    if (identity?.kind !== 'user') return html(401, 'Not logged in: API authentication or user session required');
    try {
      const pathId = decodeURIComponent((req.params as Record<string, string>)[0] ?? '');
      const actor = await actorFor(deps.domain, identity, String(res.locals.requestId));
      send(res, await downloadFile(deps.domain, actor, pathId), 'private, max-age=86400');
    } catch (err) {
      if (isConfabError(err)) return html(err.status, err.message);
      deps.logger.error({ err }, 'serving an upload failed');
      return html(500, 'Internal server error');
    }
  });
}

/**
 * GET /thumbnail?url=…&size=thumbnail|full: where the inline image previews of messages rendered before the image
 * proxy point (Zulip's thumbor-era form). An upload redirects to itself (behind authentication); any other URL is
 * refused with Zulip 9's empty 403 (docs/security.md: no open redirect).
 */
export function mountThumbnails(app: Express, deps: MessagingDeps): void {
  app.get('/thumbnail', (req: Request, res: Response) => {
    const header = req.headers[IDENTITY_HEADER];
    if (deps.verifier.verify(typeof header === 'string' ? header : undefined)?.kind !== 'user') {
      return res
        .status(401)
        .type('text/html')
        .send('<p>Not logged in: API authentication or user session required</p>');
    }
    const query = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1));
    try {
      const target = thumbnailTarget(query.get('url'), query.get('size'));
      // Zulip's HttpResponseForbidden: a 403 with an empty body.
      if (target === null) return res.status(403).type('text/html').send('');
      res.redirect(302, target);
    } catch (err) {
      if (!isConfabError(err)) throw err;
      res.status(err.status).type('text/html').send(`<p>${err.message}</p>`);
    }
  });
}
