import { randomUUID } from 'node:crypto';
import { PRISMA_TRANSACTION_OPTIONS, UnitOfWork, type OutboxRecord } from '@confab/events';
import { pingDatabase } from '@confab/runtime';
import type { ClientDeviceChange, DeviceRegistration, PushStore } from '../domain/store.js';
import type { ClientDevice, ClientDevicePatch, DeviceStatus, PushDevice, TokenKind } from '../domain/types.js';
import { isUniqueViolation, type Db, type Prisma, type Tx } from './prisma.js';

type DeviceRow = Prisma.PushDeviceGetPayload<object>;
type ClientDeviceRow = Prisma.ClientDeviceGetPayload<object>;

function toClientDevice(row: ClientDeviceRow): ClientDevice {
  return {
    id: row.id,
    userId: row.userId,
    realmId: row.realmId,
    pushKeyId: row.pushKeyId === null ? null : Number(row.pushKeyId),
    pushKey: row.pushKey,
    tokenKind: row.tokenKind as TokenKind | null,
    pushTokenId: row.pushTokenId,
    pendingPushTokenId: row.pendingPushTokenId,
    tokenUpdatedAt: row.tokenUpdatedAt,
    errorCode: row.errorCode,
    bouncerPublicKey: row.bouncerPublicKey,
    encryptedPushRegistration: row.encryptedPushRegistration,
    relayDeviceId: row.relayDeviceId,
    registrationKey: row.registrationKey,
  };
}

function clientDeviceData(patch: ClientDevicePatch): Prisma.ClientDeviceUpdateInput {
  const { pushKeyId, ...rest } = patch;
  return pushKeyId === undefined ? rest : { ...rest, pushKeyId: pushKeyId === null ? null : BigInt(pushKeyId) };
}

function toDevice(row: DeviceRow): PushDevice {
  return {
    id: row.id,
    userId: row.userId,
    realmId: row.realmId,
    pushAccountId: Number(row.pushAccountId),
    tokenKind: row.tokenKind as TokenKind,
    pushPublicKey: row.pushPublicKey,
    bouncerPublicKey: row.bouncerPublicKey,
    encryptedPushRegistration: row.encryptedPushRegistration,
    status: row.status as DeviceStatus,
    errorCode: row.errorCode,
    relayDeviceId: row.relayDeviceId,
    registrationKey: row.registrationKey,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Largest value of a Postgres integer column; ids beyond it cannot exist. */
const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;
/** Push account ids are chosen by clients; only non-negative safe integers fit (and reach the bigint column). */
const validAccountId = (id: number) => Number.isSafeInteger(id) && id >= 0;

/** The push service's only door to its database. */
export class PushRepository implements PushStore {
  private readonly unit: UnitOfWork<Tx>;

  constructor(
    readonly db: Db,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    afterCommit: () => void = () => undefined,
  ) {
    this.unit = UnitOfWork.prisma<Tx>((body) => this.db.$transaction(body, PRISMA_TRANSACTION_OPTIONS), afterCommit);
  }

  /** Runs `fn` in a transaction; the outbox records it returns are written in the same transaction. */
  transaction<T>(fn: (tx: Tx) => Promise<{ result: T; events: OutboxRecord[] }>): Promise<T> {
    return this.unit.run(fn);
  }

  /** Records a legacy token; registering the same token again only refreshes it. */
  async addToken(data: {
    userId: number;
    realmId: number;
    kind: TokenKind;
    token: string;
    iosAppId: string | null;
  }): Promise<void> {
    const where = { userId_kind_token: { userId: data.userId, kind: data.kind, token: data.token } };
    const update = { lastUpdated: new Date(), iosAppId: data.iosAppId };
    try {
      await this.db.pushDeviceToken.upsert({ where, update, create: data });
    } catch (err) {
      // Two concurrent first registrations: the loser only refreshes the winner's row.
      if (!isUniqueViolation(err)) throw err;
      await this.db.pushDeviceToken.update({ where, data: update });
    }
  }

  /** Deletes the user's token; false when there was none. */
  async hasToken(userId: number, token: string): Promise<boolean> {
    return (await this.db.pushDeviceToken.count({ where: { userId, token } })) > 0;
  }

  async removeToken(userId: number, kind: TokenKind, token: string): Promise<boolean> {
    const { count } = await this.db.pushDeviceToken.deleteMany({ where: { userId, kind, token } });
    return count > 0;
  }

  async tokenCount(userId: number): Promise<number> {
    return this.db.pushDeviceToken.count({ where: { userId } });
  }

  async deviceById(id: number): Promise<PushDevice | null> {
    if (!validId(id)) return null;
    const row = await this.db.pushDevice.findUnique({ where: { id } });
    return row ? toDevice(row) : null;
  }

  async deviceByAccount(userId: number, pushAccountId: number): Promise<PushDevice | null> {
    if (!validAccountId(pushAccountId)) return null;
    const row = await this.db.pushDevice.findUnique({
      where: { userId_pushAccountId: { userId, pushAccountId: BigInt(pushAccountId) } },
    });
    return row ? toDevice(row) : null;
  }

  async devicesOfUser(userId: number): Promise<PushDevice[]> {
    if (!validId(userId)) return [];
    const rows = await this.db.pushDevice.findMany({ where: { userId }, orderBy: { id: 'asc' } });
    return rows.map(toDevice);
  }

  /** The user's devices the relay has registered, optionally only one (by device id or push account id). */
  async activeDevices(userId: number, only: { deviceId?: number; pushAccountId?: number } = {}): Promise<PushDevice[]> {
    if (only.deviceId !== undefined && !validId(only.deviceId)) return [];
    if (only.pushAccountId !== undefined && !validAccountId(only.pushAccountId)) return [];
    const rows = await this.db.pushDevice.findMany({
      where: {
        userId,
        status: 'active',
        relayDeviceId: { not: null },
        ...(only.deviceId !== undefined ? { id: only.deviceId } : {}),
        ...(only.pushAccountId !== undefined ? { pushAccountId: BigInt(only.pushAccountId) } : {}),
      },
      orderBy: { id: 'asc' },
    });
    return rows.map(toDevice);
  }

  async devicesByIds(userId: number, ids: readonly number[]): Promise<PushDevice[]> {
    const rows = await this.db.pushDevice.findMany({
      where: { userId, id: { in: ids.filter(validId) } },
      orderBy: { id: 'asc' },
    });
    return rows.map(toDevice);
  }

  /** Pending devices not touched for `olderThanMs` (their registration job may have been lost). */
  async stalePendingDevices(olderThanMs: number, limit: number): Promise<PushDevice[]> {
    const rows = await this.db.pushDevice.findMany({
      where: { status: 'pending', updatedAt: { lt: new Date(Date.now() - olderThanMs) } },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toDevice);
  }

  /** Client devices whose token registration has been pending for `olderThanMs` (its job may have been lost). */
  async staleClientRegistrations(olderThanMs: number, limit: number): Promise<ClientDevice[]> {
    const rows = await this.db.clientDevice.findMany({
      where: {
        pendingPushTokenId: { not: null },
        errorCode: null,
        updatedAt: { lt: new Date(Date.now() - olderThanMs) },
      },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toClientDevice);
  }

  savePendingDevice(data: DeviceRegistration, announce: (device: PushDevice) => OutboxRecord[]): Promise<PushDevice> {
    return this.transaction(async (tx) => {
      const saved = await this.upsertPending(tx, data);
      return { result: saved, events: announce(saved) };
    });
  }

  /** Creates the device, or starts its registration over (new keys, status pending). */
  private async upsertPending(tx: Tx, data: DeviceRegistration): Promise<PushDevice> {
    const fields = {
      tokenKind: data.tokenKind,
      pushPublicKey: data.pushPublicKey,
      bouncerPublicKey: data.bouncerPublicKey,
      encryptedPushRegistration: data.encryptedPushRegistration,
      status: 'pending',
      errorCode: null,
      relayDeviceId: null,
      registrationKey: randomUUID(),
    };
    const row = await tx.pushDevice.upsert({
      where: { userId_pushAccountId: { userId: data.userId, pushAccountId: BigInt(data.pushAccountId) } },
      update: fields,
      create: { userId: data.userId, realmId: data.realmId, pushAccountId: BigInt(data.pushAccountId), ...fields },
    });
    return toDevice(row);
  }

  /** Moves a pending device to `status`; null when it is no longer the pending registration `registrationKey` names. */
  async finishRegistration(
    tx: Tx,
    id: number,
    registrationKey: string,
    outcome: { status: 'active'; relayDeviceId: string } | { status: 'failed'; errorCode: string },
  ): Promise<PushDevice | null> {
    const { count } = await tx.pushDevice.updateMany({
      where: { id, status: 'pending', registrationKey },
      data:
        outcome.status === 'active'
          ? { status: 'active', relayDeviceId: outcome.relayDeviceId, errorCode: null }
          : { status: 'failed', errorCode: outcome.errorCode, relayDeviceId: null },
    });
    if (count === 0) return null;
    const row = await tx.pushDevice.findUnique({ where: { id } });
    return row ? toDevice(row) : null;
  }

  addClientDevice(
    owner: { userId: number; realmId: number },
    announce: (device: ClientDevice) => OutboxRecord[],
  ): Promise<ClientDevice> {
    return this.transaction(async (tx) => {
      const saved = toClientDevice(await tx.clientDevice.create({ data: owner }));
      return { result: saved, events: announce(saved) };
    });
  }

  async clientDevicesOf(userId: number): Promise<ClientDevice[]> {
    if (!validId(userId)) return [];
    const rows = await this.db.clientDevice.findMany({ where: { userId }, orderBy: { id: 'asc' } });
    return rows.map(toClientDevice);
  }

  async clientDevice(id: number): Promise<ClientDevice | null> {
    if (!validId(id)) return null;
    const row = await this.db.clientDevice.findUnique({ where: { id } });
    return row ? toClientDevice(row) : null;
  }

  changeClientDevice<T>(id: number, decide: (device: ClientDevice | null) => ClientDeviceChange<T>): Promise<T> {
    return this.transaction(async (tx) => {
      let device: ClientDevice | null = null;
      if (validId(id)) {
        // Concurrent registrations of one device are decided one after the other, each on the state the last left.
        await tx.$queryRaw`SELECT id FROM client_devices WHERE id = ${id} FOR UPDATE`;
        const row = await tx.clientDevice.findUnique({ where: { id } });
        device = row ? toClientDevice(row) : null;
      }
      const change = decide(device);
      if (device && change.remove) await tx.clientDevice.delete({ where: { id } });
      else if (device && change.update)
        await tx.clientDevice.update({ where: { id }, data: clientDeviceData(change.update) });
      return { result: change.result, events: change.events };
    });
  }

  ping(): Promise<boolean> {
    return pingDatabase(this.db);
  }
}
