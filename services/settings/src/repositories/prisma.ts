import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export function createPrisma(url: string, poolSize: number) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: poolSize }) });
}

export type Db = ReturnType<typeof createPrisma>;
export type Tx = Prisma.TransactionClient;
/** The client a store runs on: the pool outside transactions, the transaction inside one. */
export type Client = Db | Tx;
export type { Prisma };

/** Postgres unique violation, surfaced by Prisma as P2002 (raw statements: P2010 with Postgres's 23505). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, meta } = e as { code?: unknown; meta?: { code?: unknown } };
    if (code === 'P2002' || code === '23505' || meta?.code === '23505') return true;
  }
  return false;
}

/** Largest value of a Postgres integer column; ids beyond it cannot exist. */
const MAX_INT = 2_147_483_647;
export const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;
