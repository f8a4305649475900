import type { PrismaClient, Prisma } from '../generated/prisma/client.js';

export { isUniqueViolation } from '@confab/runtime';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export type { Prisma };

export { MAX_INT, validId } from '../domain/ids.js';

/** PostgreSQL text cannot hold NUL: a lookup by such a value finds nothing rather than failing. */
export const storable = (text: string) => !text.includes('\u0000');
