import type { Db, Tx } from './prisma.js';

/** Sealed meeting-provider tokens and the OAuth `state` values of authorizations in flight. */
export class MeetingTokenRepository {
  constructor(private readonly db: Db) {}

  async get(userId: number, provider: string): Promise<string | null> {
    const row = await this.db.meetingToken.findUnique({ where: { userId } });
    return row && row.provider === provider ? row.sealed : null;
  }

  async put(tx: Tx, userId: number, provider: string, sealed: string): Promise<void> {
    await tx.meetingToken.upsert({
      where: { userId },
      create: { userId, provider, sealed },
      update: { provider, sealed },
    });
  }

  async remove(tx: Tx, userId: number): Promise<boolean> {
    return (await tx.meetingToken.deleteMany({ where: { userId } })).count > 0;
  }

  async addState(stateHash: string, userId: number, expiresAt: Date): Promise<void> {
    await this.db.$transaction([
      // Expired states are swept as new ones arrive, so the table stays small.
      this.db.meetingOAuthState.deleteMany({ where: { expiresAt: { lt: new Date() } } }),
      this.db.meetingOAuthState.create({ data: { stateHash, userId, expiresAt } }),
    ]);
  }

  /** Consumes a state: the user it was issued to, or null when it is unknown, used or expired. */
  async takeState(stateHash: string, now: Date): Promise<number | null> {
    const rows = await this.db.meetingOAuthState.findMany({ where: { stateHash } });
    const { count } = await this.db.meetingOAuthState.deleteMany({ where: { stateHash } });
    const row = rows[0];
    if (count !== 1 || !row || row.expiresAt <= now) return null;
    return row.userId;
  }
}
