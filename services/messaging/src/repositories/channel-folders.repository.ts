import { FolderNameTaken } from '../domain/channel-folders.js';
import type { ChannelFolder, ChannelFolderStore, ChannelFolderUnit } from '../domain/channel-store.js';
import { isUniqueViolation, storable, validId, type Tx } from './prisma.js';
import type { Store } from './store.js';

const fields = {
  id: true,
  realmId: true,
  name: true,
  description: true,
  renderedDescription: true,
  creatorId: true,
  dateCreated: true,
  isArchived: true,
  order: true,
} as const;

/** The channel_folders table. */
export class ChannelFoldersRepository implements ChannelFolderStore {
  constructor(private readonly store: Store) {}

  list(realmId: number): Promise<ChannelFolder[]> {
    return this.store.db.channelFolder.findMany({
      where: { realmId },
      select: fields,
      orderBy: [{ order: 'asc' }, { id: 'asc' }],
    });
  }

  async byId(realmId: number, id: number): Promise<ChannelFolder | null> {
    if (!validId(id)) return null;
    return this.store.db.channelFolder.findFirst({ where: { id, realmId }, select: fields });
  }

  async nameTaken(realmId: number, name: string): Promise<boolean> {
    if (!storable(name)) return false;
    return (await this.store.db.channelFolder.count({ where: { realmId, nameKey: name.toLowerCase() } })) > 0;
  }

  async inUse(folderId: number): Promise<boolean> {
    return (await this.store.db.channel.count({ where: { folderId, isArchived: false } })) > 0;
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): ChannelFolderUnit {
    return {
      async create(data) {
        const created = await tx.channelFolder
          .create({ data: { ...data, nameKey: data.name.toLowerCase(), order: 0 }, select: { id: true } })
          .catch((err: unknown) => {
            throw isUniqueViolation(err) ? new FolderNameTaken(data.name) : err;
          });
        return tx.channelFolder.update({ where: { id: created.id }, data: { order: created.id }, select: fields });
      },
      async update(id, patch) {
        await tx.channelFolder
          .update({
            where: { id },
            data: { ...patch, ...(patch.name === undefined ? {} : { nameKey: patch.name.toLowerCase() }) },
          })
          .catch((err: unknown) => {
            throw isUniqueViolation(err) ? new FolderNameTaken(patch.name ?? '') : err;
          });
      },
      async reorder(realmId, ids) {
        await tx.$executeRaw`UPDATE channel_folders AS f SET "order" = v.position - 1
            FROM unnest(${[...ids]}::int[]) WITH ORDINALITY AS v(id, position)
            WHERE f.id = v.id AND f.realm_id = ${realmId}`;
      },
    };
  }
}
