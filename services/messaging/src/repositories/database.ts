import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { SqlPool } from './sql.js';

/**
 * The process's database: one pool of `max` connections (docs/architecture.md, "PostgreSQL connections"), which
 * Prisma and the plain SQL share; `kept` of them at most are held by the group commit (`SqlPool.planOnce`).
 */
export function openDatabase(url: string, max: number, kept = 0) {
  const sql = new SqlPool(url, max, { kept });
  const prisma = new PrismaClient({ adapter: new PrismaPg(sql.pool) });
  /** Prisma first (it lets go of the pool, which it does not own), then the pool. */
  const close = async () => {
    await prisma.$disconnect();
    await sql.end();
  };
  return { prisma, sql, close };
}
