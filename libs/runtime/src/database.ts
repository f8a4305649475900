import { PrismaPg } from '@prisma/adapter-pg';

/**
 * A service's Prisma client on PostgreSQL through the pg driver adapter (docs/architecture.md "Data access"): each
 * service passes its own generated client class, so the connection settings are written once.
 */
export function openPrisma<C>(Client: new (options: { adapter: PrismaPg }) => C, url: string, poolSize: number): C {
  return new Client({ adapter: new PrismaPg({ connectionString: url, max: poolSize }) });
}

/** Whether the database answers (readiness probes). */
export async function pingDatabase(db: { $queryRawUnsafe(query: string): Promise<unknown> }): Promise<boolean> {
  try {
    await db.$queryRawUnsafe('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * A PostgreSQL unique violation, however it surfaced: Prisma's P2002, or SQLSTATE 23505 from pg, from Prisma's raw
 * statements (in `meta`) or from a driver error wrapped as the `cause`.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, meta } = e as { code?: unknown; meta?: { code?: unknown } };
    if (code === 'P2002' || code === '23505' || meta?.code === '23505') return true;
  }
  return false;
}
