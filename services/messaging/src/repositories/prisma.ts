import { openPrisma } from '@confab/runtime';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export { isUniqueViolation } from '@confab/runtime';

export const createPrisma = (url: string, poolSize: number) => openPrisma(PrismaClient, url, poolSize);

export type Db = ReturnType<typeof createPrisma>;
export type Tx = Prisma.TransactionClient;
export type { Prisma };

export { MAX_INT, validId } from '../domain/ids.js';

/** PostgreSQL text cannot hold NUL: a lookup by such a value finds nothing rather than failing. */
export const storable = (text: string) => !text.includes('\u0000');
