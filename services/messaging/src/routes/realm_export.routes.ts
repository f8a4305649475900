import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Express, Request, Response } from 'express';
import { IDENTITY_HEADER } from '@confab/identity';
import { p, t } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { isAdmin } from '../domain/permissions.js';
import { deleteExport, exportConsents, listExports, requestExport } from '../domain/realm-exports.js';
import { exportsDir } from '../jobs/realm-export.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

/** Organization exports (Zulip's /export/realm). */
export function realmExportRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'GET',
      path: '/export/realm',
      auth: 'user',
      async handler({ actor }) {
        return listExports(domain, actor);
      },
    }),
    withActor({
      method: 'POST',
      path: '/export/realm',
      auth: 'user',
      params: { export_type: p.json(t.literal(1, 2)).default(1) },
      async handler({ actor, params }) {
        return requestExport(domain, deps.exportRunner, actor, params.export_type);
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/export/realm/{export_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteExport(domain, deps.exportRunner, actor, path.export_id);
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/export/realm/consents',
      auth: 'user',
      async handler({ actor }) {
        return exportConsents(domain, actor);
      },
    }),
  ];
}

/** An export's archive, for its organization's administrators only (the URL in GET /export/realm). */
export function mountExportDownloads(app: Express, deps: MessagingDeps): void {
  app.get(
    /^\/user_uploads\/exports\/(\d+)\/([0-9a-f]+)\/([A-Za-z0-9._-]+\.tar\.gz)$/,
    async (req: Request, res: Response) => {
      const html = (status: number, text: string) => res.status(status).type('text/html').send(`<p>${text}</p>`);
      const header = req.headers[IDENTITY_HEADER];
      const identity = deps.verifier.verify(typeof header === 'string' ? header : undefined);
      if (identity?.kind !== 'user') return html(401, 'Not logged in: API authentication or user session required');
      const params = req.params as Record<string, string | undefined>;
      const [realmId, token, name] = [params[0] ?? '', params[1] ?? '', params[2] ?? ''];
      const actor = await actorFor(deps.domain, identity, String(res.locals.requestId));
      if (String(actor.realm.id) !== realmId || !isAdmin(actor.user)) return html(404, 'File not found.');
      const file = join(exportsDir(deps.config), realmId, token, name);
      try {
        const info = await stat(file);
        res.status(200).setHeader('Content-Type', 'application/gzip').setHeader('Content-Length', String(info.size));
        res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
        createReadStream(file).pipe(res);
      } catch {
        html(404, 'File not found.');
      }
    },
  );
}
