import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Role } from '../domain/types.js';
import type { OwnUserRead } from '../domain/store.js';
import { validId } from './prisma.js';

/**
 * The user and their custom profile field values in one statement: GET /users/me, which every client asks for,
 * spent most of settings' CPU in Prisma's query compiler and client for its two reads (bench/RESULTS.md, issue 47).
 * The same rows the Prisma stores read, by plain pg on a small pool of its own.
 */
const OWN_USER = `
SELECT u.id, u.realm_id, u.email, u.delivery_email, u.full_name, u.role, u.is_bot, u.bot_type, u.bot_owner_id,
       u.is_active, u.is_imported_stub, u.is_system_bot, u.timezone, u.date_joined, u.avatar_version, u.avatar_file,
       u.password_hash, u.email_address_visibility,
       COALESCE((SELECT json_agg(json_build_array(v.field_id, v.value, v.rendered_value) ORDER BY v.field_id)
                   FROM custom_profile_field_values v WHERE v.user_id = u.id), '[]') AS profile_values
  FROM users u WHERE u.id = $1`;

interface Row {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: boolean;
  is_imported_stub: boolean;
  is_system_bot: boolean;
  timezone: string;
  date_joined: Date;
  avatar_version: number;
  avatar_file: string | null;
  password_hash: string | null;
  email_address_visibility: number;
  profile_values: [number, string, string | null][];
}

export class SqlOwnUserRead implements OwnUserRead {
  private readonly pool: pg.Pool;
  /** Kept prepared by name, except through a transaction-mode PgBouncer (docs/architecture.md). */
  private readonly name: string | undefined;

  constructor(url: string, max: number) {
    this.pool = new pg.Pool({ connectionString: url, max });
    this.pool.on('error', () => undefined);
    const named = new URL(url).searchParams.get('pgbouncer') !== 'true';
    this.name = named ? `own_user_${createHash('sha1').update(OWN_USER).digest('hex').slice(0, 12)}` : undefined;
  }

  async ownUser(userId: number): ReturnType<OwnUserRead['ownUser']> {
    if (!validId(userId)) return null;
    const { rows } = await this.pool.query<Row>({ name: this.name, text: OWN_USER, values: [userId] });
    const row = rows[0];
    if (!row) return null;
    return {
      user: {
        id: row.id,
        realmId: row.realm_id,
        email: row.email,
        deliveryEmail: row.delivery_email,
        fullName: row.full_name,
        role: row.role as Role,
        isBot: row.is_bot,
        botType: row.bot_type,
        botOwnerId: row.bot_owner_id,
        isActive: row.is_active,
        isImportedStub: row.is_imported_stub,
        isSystemBot: row.is_system_bot,
        timezone: row.timezone,
        dateJoined: row.date_joined,
        avatarVersion: row.avatar_version,
        avatarFile: row.avatar_file,
        passwordHash: row.password_hash,
        emailAddressVisibility: row.email_address_visibility,
      },
      profileValues: row.profile_values.map(([fieldId, value, renderedValue]) => ({
        fieldId,
        userId: row.id,
        value,
        renderedValue,
      })),
    };
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
