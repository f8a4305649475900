import type { RealmDomainStore, RealmEmojiStore, SystemGroupStore } from '../domain/store.js';
import type { NewRealmEmoji, RealmDomain, RealmEmoji } from '../domain/types.js';
import type { Client } from './prisma.js';

export class PrismaRealmEmojiStore implements RealmEmojiStore {
  constructor(private readonly db: Client) {}

  inRealm(realmId: number): Promise<RealmEmoji[]> {
    return this.db.realmEmoji.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  }

  activeByName(realmId: number, name: string): Promise<RealmEmoji | null> {
    return this.db.realmEmoji.findFirst({ where: { realmId, name, deactivated: false } });
  }

  create(emoji: NewRealmEmoji): Promise<RealmEmoji> {
    return this.db.realmEmoji.create({ data: emoji });
  }

  setFileName(id: number, fileName: string): Promise<RealmEmoji> {
    return this.db.realmEmoji.update({ where: { id }, data: { fileName } });
  }

  async deactivate(id: number): Promise<void> {
    await this.db.realmEmoji.update({ where: { id }, data: { deactivated: true } });
  }

  byFileName(realmId: number, fileName: string): Promise<RealmEmoji | null> {
    return this.db.realmEmoji.findFirst({ where: { realmId, fileName } });
  }
}

export class PrismaRealmDomainStore implements RealmDomainStore {
  constructor(private readonly db: Client) {}

  inRealm(realmId: number): Promise<RealmDomain[]> {
    return this.db.realmDomain.findMany({ where: { realmId }, orderBy: { domain: 'asc' } });
  }

  byDomain(realmId: number, domain: string): Promise<RealmDomain | null> {
    return this.db.realmDomain.findUnique({ where: { realmId_domain: { realmId, domain } } });
  }

  create(realmId: number, domain: string, allowSubdomains: boolean): Promise<RealmDomain> {
    return this.db.realmDomain.create({ data: { realmId, domain, allowSubdomains } });
  }

  setAllowSubdomains(id: number, allowSubdomains: boolean): Promise<RealmDomain> {
    return this.db.realmDomain.update({ where: { id }, data: { allowSubdomains } });
  }

  async remove(id: number): Promise<void> {
    await this.db.realmDomain.delete({ where: { id } });
  }
}

export class PrismaSystemGroupStore implements SystemGroupStore {
  constructor(private readonly db: Client) {}

  async ofRealm(realmId: number): Promise<Map<string, number>> {
    const rows = await this.db.systemGroup.findMany({ where: { realmId } });
    return new Map(rows.map((r) => [r.name, r.groupId]));
  }

  async save(realmId: number, name: string, groupId: number): Promise<void> {
    await this.db.systemGroup.upsert({
      where: { realmId_name: { realmId, name } },
      create: { realmId, name, groupId },
      update: { groupId },
    });
  }

  async isEmpty(): Promise<boolean> {
    return (await this.db.systemGroup.findFirst({ select: { realmId: true } })) === null;
  }
}
