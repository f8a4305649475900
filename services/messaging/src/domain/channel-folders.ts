import { invalid, organizationAdministratorRequired } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord, type Written } from '@confab/events';
import { renderDescription } from './channel-rules.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import { firstUnprintable } from './text.js';
import type { ChannelFolder, ChannelFolderUnit } from './channel-store.js';

/** Storage's answer when another folder took the name meanwhile. */
export class FolderNameTaken extends Error {
  constructor(readonly folderName: string) {
    super(`a channel folder named ${folderName} exists`);
  }
}

const nameTaken = (name: string) => invalid(`Channel folder '${name}' already exists`);

/** Zulip's ChannelFolder.MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH. */
export const MAX_FOLDER_NAME_LENGTH = 60;
export const MAX_FOLDER_DESCRIPTION_LENGTH = 1024;

const meta = (actor: Actor) => ({ realmId: actor.realm.id, requestId: actor.requestId });

export function folderDict(folder: ChannelFolder): contracts.ChannelFolderRecord {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.renderedDescription,
    creator_id: folder.creatorId,
    date_created: Math.floor(folder.dateCreated.getTime() / 1000),
    is_archived: folder.isArchived,
    order: folder.order,
  };
}

function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
}

/** Zulip's check_channel_folder_name. */
async function checkName(domain: Domain, actor: Actor, name: string): Promise<void> {
  if (name.trim() === '') throw invalid("Channel folder name can't be empty.");
  const bad = firstUnprintable(name);
  if (bad !== null) throw invalid(`Invalid character in channel folder name, at position ${bad}.`);
  if (await domain.channelFolders.nameTaken(actor.realm.id, name)) throw nameTaken(name);
}

/** Zulip's get_channel_folder_by_id. */
export async function folderById(
  domain: Pick<Domain, 'channelFolders'>,
  actor: Actor,
  id: number,
): Promise<ChannelFolder> {
  const folder = await domain.channelFolders.byId(actor.realm.id, id);
  if (!folder) throw invalid('Invalid channel folder ID');
  return folder;
}

const updated = (actor: Actor, id: number, data: Record<string, unknown>): OutboxRecord =>
  outboxRecord(contracts.channelFolderUpdated, { realm_id: actor.realm.id, channel_folder_id: id, data }, meta(actor));

/** A change of folders; a name another request took meanwhile is Zulip's "already exists". */
async function inOneUnit<T>(
  domain: Pick<Domain, 'db'>,
  actor: Actor,
  fn: (folders: ChannelFolderUnit) => Promise<Written<T>>,
): Promise<T> {
  try {
    return await domain.db.write(actor.realm.id, (store) => fn(store.channelFolders));
  } catch (err) {
    if (err instanceof FolderNameTaken) throw nameTaken(err.folderName);
    throw err;
  }
}

/** GET /channel_folders. */
export async function listFolders(domain: Domain, actor: Actor, includeArchived: boolean) {
  const folders = await domain.channelFolders.list(actor.realm.id);
  return { channel_folders: folders.filter((f) => includeArchived || !f.isArchived).map(folderDict) };
}

/** POST /channel_folders/create. */
export async function createFolder(
  domain: Domain,
  actor: Actor,
  input: { name: string; description: string },
): Promise<{ channel_folder_id: number }> {
  requireAdmin(actor);
  await checkName(domain, actor, input.name);
  const renderedDescription = await renderDescription(domain, actor, input.description);
  return inOneUnit(domain, actor, async (folders) => {
    const folder = await folders.create({
      realmId: actor.realm.id,
      name: input.name,
      description: input.description,
      renderedDescription,
      creatorId: actor.user.id,
    });
    const added = outboxRecord(
      contracts.channelFolderAdded,
      { realm_id: actor.realm.id, channel_folder: folderDict(folder) },
      meta(actor),
    );
    return { result: { channel_folder_id: folder.id }, events: [added] };
  });
}

/** PATCH /channel_folders/{channel_folder_id} (Zulip's update_channel_folder: one event per changed field). */
export async function updateFolder(
  domain: Domain,
  actor: Actor,
  id: number,
  input: { name?: string | undefined; description?: string | undefined; isArchived?: boolean | undefined },
): Promise<void> {
  requireAdmin(actor);
  const folder = await folderById(domain, actor, id);
  const events: OutboxRecord[] = [];
  const patch: Parameters<ChannelFolderUnit['update']>[1] = {};
  if (input.name !== undefined && input.name !== folder.name) {
    await checkName(domain, actor, input.name);
    patch.name = input.name;
    events.push(updated(actor, id, { name: input.name }));
  }
  if (input.description !== undefined && input.description !== folder.description) {
    const rendered = await renderDescription(domain, actor, input.description);
    Object.assign(patch, { description: input.description, renderedDescription: rendered });
    events.push(updated(actor, id, { description: input.description, rendered_description: rendered }));
  }
  if (input.isArchived !== undefined && input.isArchived !== folder.isArchived) {
    if (input.isArchived && (await domain.channelFolders.inUse(id)))
      throw invalid('You need to remove all the channels from this folder to archive it.');
    patch.isArchived = input.isArchived;
    events.push(updated(actor, id, { is_archived: input.isArchived }));
  }
  if (events.length === 0) return;
  await inOneUnit(domain, actor, async (folders) => {
    await folders.update(id, patch);
    return { result: undefined, events };
  });
}

/** PATCH /channel_folders (Zulip's try_reorder_realm_channel_folders): `order` must name every folder. */
export async function reorderFolders(domain: Domain, actor: Actor, order: readonly number[]): Promise<void> {
  requireAdmin(actor);
  const listed = new Set(order);
  const folders = await domain.channelFolders.list(actor.realm.id);
  if (folders.some((f) => !listed.has(f.id))) throw invalid('Invalid order mapping.');
  const known = new Set(folders.map((f) => f.id));
  const ids = [...listed].filter((id) => known.has(id));
  await domain.db.write(actor.realm.id, async ({ channelFolders }) => {
    await channelFolders.reorder(actor.realm.id, ids);
    const event = outboxRecord(
      contracts.channelFoldersReordered,
      { realm_id: actor.realm.id, order: [...order] },
      meta(actor),
    );
    return { result: undefined, events: [event] };
  });
}
