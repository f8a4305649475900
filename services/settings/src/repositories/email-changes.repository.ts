import type { Db, Tx } from './prisma.js';

export const EMAIL_CHANGE_PENDING = 0;
export const EMAIL_CHANGE_CONFIRMED = 1;
export const EMAIL_CHANGE_REPLACED = 2;

export interface EmailChange {
  id: number;
  userId: number;
  oldEmail: string;
  newEmail: string;
  status: number;
  expiresAt: Date;
}

const select = { id: true, userId: true, oldEmail: true, newEmail: true, status: true, expiresAt: true } as const;

export class EmailChangeRepository {
  constructor(private readonly db: Db) {}

  /** Records a new request; older pending requests of the user stop working (Zulip keeps one live link). */
  async create(data: {
    userId: number;
    oldEmail: string;
    newEmail: string;
    keyHash: string;
    expiresAt: Date;
  }): Promise<EmailChange> {
    return this.db.$transaction(async (tx) => {
      await tx.emailChange.updateMany({
        where: { userId: data.userId, status: EMAIL_CHANGE_PENDING },
        data: { status: EMAIL_CHANGE_REPLACED },
      });
      return tx.emailChange.create({ data, select });
    });
  }

  byKeyHash(keyHash: string, tx?: Tx): Promise<EmailChange | null> {
    return (tx ?? this.db).emailChange.findUnique({ where: { keyHash }, select });
  }

  /** Marks a pending, unexpired request used; false when another request got there first or it is not usable. */
  async claim(tx: Tx, id: number, now: Date): Promise<boolean> {
    const { count } = await tx.emailChange.updateMany({
      where: { id, status: EMAIL_CHANGE_PENDING, expiresAt: { gt: now } },
      data: { status: EMAIL_CHANGE_CONFIRMED },
    });
    return count === 1;
  }

  async setStatus(id: number, status: number): Promise<void> {
    await this.db.emailChange.update({ where: { id }, data: { status } });
  }
}
