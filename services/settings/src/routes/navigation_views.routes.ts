import { p, route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import {
  addNavigationView,
  listNavigationViews,
  removeNavigationView,
  updateNavigationView,
} from '../domain/navigation-views.js';

export function navigationViewRoutes(deps: SettingsDeps) {
  return [
    route({
      method: 'GET',
      path: '/navigation_views',
      auth: 'user',
      async handler({ identity }) {
        return { navigation_views: await listNavigationViews(deps.db, identity) };
      },
    }),
    route({
      method: 'POST',
      path: '/navigation_views',
      auth: 'user',
      params: {
        fragment: p.string({ nonBlank: true }),
        is_pinned: p.bool(),
        name: p.string({ nonBlank: true }).optional(),
      },
      async handler({ identity, params, requestId }) {
        await addNavigationView(
          deps.db,
          identity,
          { fragment: params.fragment, isPinned: params.is_pinned, name: params.name },
          requestId,
        );
        return {};
      },
    }),
    route({
      method: 'PATCH',
      path: '/navigation_views/{fragment:path}',
      auth: 'user',
      params: { is_pinned: p.bool().optional(), name: p.string({ nonBlank: true }).optional() },
      async handler({ identity, path, params, requestId }) {
        await updateNavigationView(
          deps.db,
          identity,
          path.fragment.trim(),
          { isPinned: params.is_pinned, name: params.name },
          requestId,
        );
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/navigation_views/{fragment:path}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await removeNavigationView(deps.db, identity, path.fragment.trim(), requestId);
        return {};
      },
    }),
  ];
}
