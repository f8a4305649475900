import { openPrisma } from '@confab/runtime';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export { isUniqueViolation } from '@confab/runtime';

export const createPrisma = (url: string, poolSize: number) => openPrisma(PrismaClient, url, poolSize);

export type Db = ReturnType<typeof createPrisma>;
/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;
export type { Prisma };
