import { openPrisma } from '@confab/runtime';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export { isUniqueViolation } from '@confab/runtime';

export const createPrisma = (url: string, poolSize: number) => openPrisma(PrismaClient, url, poolSize);

export type Db = ReturnType<typeof createPrisma>;
export type Tx = Prisma.TransactionClient;
/** The client a store runs on: the pool outside transactions, the transaction inside one. */
export type Client = Db | Tx;
export type { Prisma };

/** Largest value of a Postgres integer column; ids beyond it cannot exist. */
const MAX_INT = 2_147_483_647;
export const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_INT;
