import type { BotServiceStore, ProfileFieldStore } from '../domain/store.js';
import type { BotService, NewProfileField, ProfileField, ProfileFieldValue } from '../domain/types.js';
import type { Client } from './prisma.js';

export class PrismaBotServiceStore implements BotServiceStore {
  constructor(private readonly db: Client) {}

  async ofBots(botIds: readonly number[]): Promise<BotService[]> {
    if (botIds.length === 0) return [];
    const rows = await this.db.botService.findMany({ where: { botId: { in: [...botIds] } }, orderBy: { id: 'asc' } });
    return rows.map(({ botId, name, baseUrl, interface: kind, token }) => ({
      botId,
      name,
      baseUrl,
      interface: kind,
      token,
    }));
  }

  async add(service: BotService): Promise<void> {
    await this.db.botService.create({ data: service });
  }

  async update(
    botId: number,
    changes: { baseUrl?: string | undefined; interface?: number | undefined },
  ): Promise<void> {
    await this.db.botService.updateMany({
      where: { botId },
      data: {
        ...(changes.baseUrl !== undefined ? { baseUrl: changes.baseUrl } : {}),
        ...(changes.interface !== undefined ? { interface: changes.interface } : {}),
      },
    });
  }
}

export class PrismaProfileFieldStore implements ProfileFieldStore {
  constructor(private readonly db: Client) {}

  inRealm(realmId: number): Promise<ProfileField[]> {
    return this.db.customProfileField.findMany({ where: { realmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
  }

  byId(id: number): Promise<ProfileField | null> {
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return Promise.resolve(null);
    return this.db.customProfileField.findUnique({ where: { id } });
  }

  async create(field: NewProfileField): Promise<ProfileField> {
    const last = await this.db.customProfileField.aggregate({
      where: { realmId: field.realmId },
      _max: { order: true },
    });
    return this.db.customProfileField.create({ data: { ...field, order: (last._max.order ?? -1) + 1 } });
  }

  update(id: number, changes: Partial<Omit<ProfileField, 'id' | 'realmId'>>): Promise<ProfileField> {
    return this.db.customProfileField.update({ where: { id }, data: changes });
  }

  async remove(id: number): Promise<void> {
    await this.db.customProfileField.delete({ where: { id } });
  }

  async reorder(ids: readonly number[]): Promise<void> {
    for (const [order, id] of ids.entries())
      await this.db.customProfileField.update({ where: { id }, data: { order } });
  }

  valuesOf(userIds: readonly number[]): Promise<ProfileFieldValue[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db.customProfileFieldValue.findMany({
      where: { userId: { in: [...userIds] } },
      orderBy: [{ userId: 'asc' }, { fieldId: 'asc' }],
    });
  }

  async setValues(
    userId: number,
    values: readonly { fieldId: number; value: string | null; renderedValue?: string | null }[],
  ): Promise<void> {
    for (const { fieldId, value, renderedValue } of values) {
      if (value === null) {
        await this.db.customProfileFieldValue.deleteMany({ where: { fieldId, userId } });
        continue;
      }
      await this.db.customProfileFieldValue.upsert({
        where: { fieldId_userId: { fieldId, userId } },
        create: { fieldId, userId, value, renderedValue: renderedValue ?? null },
        update: { value, renderedValue: renderedValue ?? null },
      });
    }
  }
}
