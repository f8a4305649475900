import type { DefaultChannelStore, DefaultChannelUnit } from '../domain/channel-store.js';
import type { Tx } from './prisma.js';
import type { Store } from './store.js';

/** The default_channels table: the channels new members of an organization are subscribed to. */
export class DefaultChannelsRepository implements DefaultChannelStore {
  constructor(private readonly store: Store) {}

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): DefaultChannelUnit {
    return {
      ids: (realmId) => this.ids(realmId, tx),
      add: (realmId, channelId) => this.add(tx, realmId, channelId),
      remove: (channelId) => this.remove(tx, channelId),
    };
  }

  async ids(realmId: number, tx?: Tx): Promise<number[]> {
    const rows = await (tx ?? this.store.db).defaultChannel.findMany({
      where: { realmId },
      select: { channelId: true },
      orderBy: { channelId: 'asc' },
    });
    return rows.map((r) => r.channelId);
  }

  async add(tx: Tx, realmId: number, channelId: number): Promise<boolean> {
    const rows = await tx.$queryRaw<{ channel_id: number }[]>`
      INSERT INTO default_channels (channel_id, realm_id) VALUES (${channelId}, ${realmId})
      ON CONFLICT (channel_id) DO NOTHING RETURNING channel_id`;
    return rows.length > 0;
  }

  async remove(tx: Tx, channelId: number): Promise<boolean> {
    const { count } = await tx.defaultChannel.deleteMany({ where: { channelId } });
    return count > 0;
  }
}
