import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export function createPrisma(url: string, poolSize: number) {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: poolSize }) });
}

export type Db = ReturnType<typeof createPrisma>;
export type Tx = Prisma.TransactionClient;
export type { Prisma };

/** Postgres unique violation, surfaced by Prisma as P2002 (or as 23505 from raw queries). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; meta?: { code?: unknown }; cause?: { code?: unknown } };
  return e.code === 'P2002' || e.code === '23505' || e.meta?.code === '23505' || e.cause?.code === '23505';
}

export { MAX_INT, validId } from '../domain/ids.js';

/** PostgreSQL text cannot hold NUL: a lookup by such a value finds nothing rather than failing. */
export const storable = (text: string) => !text.includes('\u0000');
