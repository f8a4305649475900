import { claimEvent, PRISMA_TRANSACTION_OPTIONS, UnitOfWork, type OutboxRecord } from '@confab/events';
import type { Role } from '@confab/identity';
import type { InviteRepository } from '../domain/ports.js';
import type { Invite, NewInvite, Signup } from '../domain/types.js';
import type { MultiuseInvite, Signup as SignupRow } from '../generated/prisma/client.js';
import { isUniqueViolation, type Db, type Tx } from './prisma.js';

function toInvite(row: MultiuseInvite): Invite {
  return { ...row, inviteAs: row.inviteAs as Role };
}

function toSignup(row: SignupRow): Signup {
  return {
    id: row.id,
    inviteId: row.inviteId,
    realmId: row.realmId,
    emailKey: row.emailKey,
    userId: row.userId,
    completedAt: row.completedAt,
  };
}

/** One email invitation request of an organization at a time, so that racing requests never pass the limit together. */
async function lockEmailInvites(tx: Tx, realmId: number): Promise<void> {
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1), $2)', 'email-invites', realmId);
}

/** Invitation mails of the organization since `since`: invitations made, and invitations mailed again. */
async function emailsSentSince(db: Db | Tx, realmId: number, since: Date): Promise<number> {
  const [made, resent] = await Promise.all([
    db.multiuseInvite.count({ where: { realmId, email: { not: null }, createdAt: { gte: since } } }),
    db.inviteResend.count({ where: { realmId, sentAt: { gte: since } } }),
  ]);
  return made + resent;
}

export class PrismaInviteRepository implements InviteRepository {
  /** Changes and their outbox rows commit together, and the relay is woken after (docs/architecture.md). */
  private readonly unit: UnitOfWork<Tx>;

  constructor(
    readonly db: Db,
    /** Wakes the outbox relay after a commit that wrote events. */
    afterCommit: () => void = () => undefined,
  ) {
    this.unit = UnitOfWork.prisma<Tx>((body) => this.db.$transaction(body, PRISMA_TRANSACTION_OPTIONS), afterCommit);
  }

  async create(invite: NewInvite, events: readonly OutboxRecord[] = []): Promise<Invite> {
    return this.unit.run(async (tx) => ({
      result: toInvite(await tx.multiuseInvite.create({ data: invite })),
      events: [...events],
    }));
  }

  async createMany(
    invites: readonly NewInvite[],
    events: readonly OutboxRecord[],
    limit: { realmId: number; since: Date; max: number },
  ): Promise<Invite[] | null> {
    return this.unit.run(async (tx) => {
      await lockEmailInvites(tx, limit.realmId);
      const recent = await emailsSentSince(tx, limit.realmId, limit.since);
      if (recent + invites.length > limit.max) return { result: null, events: [] };
      const created = [];
      for (const invite of invites) created.push(toInvite(await tx.multiuseInvite.create({ data: invite })));
      return { result: created, events: [...events] };
    });
  }

  emailInvitesSince(realmId: number, since: Date): Promise<number> {
    return emailsSentSince(this.db, realmId, since);
  }

  async recordResend(
    invite: Invite,
    events: readonly OutboxRecord[],
    limit: { since: Date; max: number },
  ): Promise<boolean> {
    return this.unit.run(async (tx) => {
      await lockEmailInvites(tx, invite.realmId);
      if ((await emailsSentSince(tx, invite.realmId, limit.since)) + 1 > limit.max)
        return { result: false, events: [] };
      await tx.inviteResend.create({ data: { inviteId: invite.id, realmId: invite.realmId } });
      return { result: true, events: [...events] };
    });
  }

  async markUsed(id: number, at: Date): Promise<void> {
    await this.db.multiuseInvite.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
  }

  async byId(id: number): Promise<Invite | null> {
    const row = await this.db.multiuseInvite.findUnique({ where: { id } });
    return row ? toInvite(row) : null;
  }

  async byKey(key: string): Promise<Invite | null> {
    const row = await this.db.multiuseInvite.findUnique({ where: { key } });
    return row ? toInvite(row) : null;
  }

  async active(realmId: number, now: Date, referrerId?: number): Promise<Invite[]> {
    const rows = await this.db.multiuseInvite.findMany({
      where: {
        realmId,
        revokedAt: null,
        usedAt: null,
        OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
        ...(referrerId === undefined ? {} : { referrerId }),
      },
      orderBy: { id: 'asc' },
    });
    return rows.map(toInvite);
  }

  async revoke(id: number, at: Date, events: readonly OutboxRecord[] = []): Promise<void> {
    await this.unit.run(async (tx) => {
      await tx.multiuseInvite.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
      return { result: undefined, events: [...events] };
    });
  }

  async expireLinksOf(referrerId: number, at: Date, claim: { consumer: string; eventId: string }): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      if (!(await claimEvent(tx, claim.consumer, claim.eventId))) return false;
      await tx.multiuseInvite.updateMany({
        where: { referrerId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
        data: { expiresAt: at },
      });
      return true;
    });
  }

  async setExpiry(id: number, at: Date | null): Promise<boolean> {
    const { count } = await this.db.multiuseInvite.updateMany({ where: { id }, data: { expiresAt: at } });
    return count > 0;
  }

  async claimSignup(invite: Invite, emailKey: string): Promise<Signup | null> {
    try {
      return toSignup(
        await this.db.signup.create({ data: { inviteId: invite.id, realmId: invite.realmId, emailKey } }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  async signupFor(realmId: number, emailKey: string): Promise<Signup | null> {
    const row = await this.db.signup.findUnique({ where: { realmId_emailKey: { realmId, emailKey } } });
    return row ? toSignup(row) : null;
  }

  async releaseSignup(id: number): Promise<void> {
    await this.db.signup.deleteMany({ where: { id, userId: null } });
  }

  async setSignupUser(id: number, userId: number): Promise<void> {
    await this.db.signup.update({ where: { id }, data: { userId } });
  }

  async completeSignup(id: number, at: Date): Promise<void> {
    await this.db.signup.update({ where: { id }, data: { completedAt: at } });
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.$queryRaw`SELECT 1`;
      return true;
    } catch {
      return false;
    }
  }
}
