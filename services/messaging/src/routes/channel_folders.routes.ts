import { p, t } from '@confab/http';
import {
  createFolder,
  listFolders,
  MAX_FOLDER_DESCRIPTION_LENGTH,
  MAX_FOLDER_NAME_LENGTH,
  reorderFolders,
  updateFolder,
} from '../domain/channel-folders.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

/** Channel folders (Zulip 11, feature levels 389 and 414). */
export function channelFolderRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  const name = () => p.string({ maxLength: MAX_FOLDER_NAME_LENGTH, nulCheckedByDomain: true });
  const description = () => p.string({ maxLength: MAX_FOLDER_DESCRIPTION_LENGTH });
  return [
    withActor({
      method: 'POST',
      path: '/channel_folders/create',
      auth: 'user',
      params: { name: name(), description: description() },
      async handler({ actor, params }) {
        return createFolder(domain, actor, params);
      },
    }),
    withActor({
      method: 'GET',
      path: '/channel_folders',
      auth: 'user',
      params: { include_archived: p.bool().default(false) },
      async handler({ actor, params }) {
        return listFolders(domain, actor, params.include_archived);
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/channel_folders',
      auth: 'user',
      params: { order: p.json(t.list(t.int())) },
      async handler({ actor, params }) {
        await reorderFolders(domain, actor, params.order);
        return {};
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/channel_folders/{channel_folder_id:int}',
      auth: 'user',
      params: { name: name().optional(), description: description().optional(), is_archived: p.bool().optional() },
      async handler({ actor, params, path }) {
        await updateFolder(domain, actor, path.channel_folder_id, {
          name: params.name,
          description: params.description,
          isArchived: params.is_archived,
        });
        return {};
      },
    }),
  ];
}
