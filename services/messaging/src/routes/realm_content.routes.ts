import { p, t } from '@confab/http';
import {
  addLinkifier,
  listLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
  updateLinkifier,
} from '../domain/linkifiers.js';
import { addPlayground, removePlayground } from '../domain/playgrounds.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

/** Linkifiers (`/realm/linkifiers`, the legacy `/realm/filters`) and code playgrounds (`/realm/playgrounds`). */
export function realmContentRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  const linkifier = { pattern: p.string(), url_template: p.string() };
  return [
    withActor({
      method: 'GET',
      path: '/realm/linkifiers',
      auth: 'user',
      async handler({ actor }) {
        return listLinkifiers(domain, actor);
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/realm/linkifiers',
      auth: 'user',
      params: { ordered_linkifier_ids: p.json(t.list(t.int())) },
      async handler({ actor, params }) {
        await reorderLinkifiers(domain, actor, params.ordered_linkifier_ids);
        return {};
      },
    }),
    withActor({
      method: 'POST',
      path: '/realm/filters',
      auth: 'user',
      params: linkifier,
      async handler({ actor, params }) {
        return addLinkifier(domain, actor, params.pattern, params.url_template);
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/realm/filters/{filter_id:int}',
      auth: 'user',
      params: linkifier,
      async handler({ actor, params, path }) {
        await updateLinkifier(domain, actor, path.filter_id, params.pattern, params.url_template);
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/realm/filters/{filter_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await removeLinkifier(domain, actor, path.filter_id);
        return {};
      },
    }),
    withActor({
      method: 'POST',
      path: '/realm/playgrounds',
      auth: 'user',
      params: { name: p.string(), pygments_language: p.string(), url_template: p.string() },
      async handler({ actor, params }) {
        return addPlayground(domain, actor, {
          name: params.name,
          pygmentsLanguage: params.pygments_language,
          urlTemplate: params.url_template,
        });
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/realm/playgrounds/{playground_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await removePlayground(domain, actor, path.playground_id);
        return {};
      },
    }),
  ];
}
