import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Role, User } from '../domain/types.js';
import type { OwnUserRead, PresenceFacts } from '../domain/store.js';
import { validId } from './prisma.js';

/** A user row's columns as the statements here read them. */
const USER_COLUMNS = `u.id, u.realm_id, u.email, u.delivery_email, u.full_name, u.role, u.is_bot, u.bot_type,
       u.bot_owner_id, u.is_active, u.is_imported_stub, u.is_system_bot, u.timezone, u.date_joined, u.avatar_version,
       u.avatar_file, u.password_hash, u.email_address_visibility`;

/**
 * The user and their custom profile field values in one statement: GET /users/me, which every client asks for,
 * spent most of settings' CPU in Prisma's query compiler and client for its two reads (bench/RESULTS.md, issue 47).
 * The same rows the Prisma stores read, by plain pg on a small pool of its own.
 */
const OWN_USER = `
SELECT ${USER_COLUMNS},
       COALESCE((SELECT json_agg(json_build_array(v.field_id, v.value, v.rendered_value) ORDER BY v.field_id)
                   FROM custom_profile_field_values v WHERE v.user_id = u.id), '[]') AS profile_values
  FROM users u WHERE u.id = $1`;

/**
 * A presence report's facts in one statement: the user, their organization's presence switch and their personal
 * settings, instead of three reads through Prisma (every client reports
 * every minute: with thousands of people, the most frequent request after the long poll).
 */
const PRESENCE_FACTS = `
SELECT ${USER_COLUMNS}, r.presence_disabled, COALESCE(s.values, '{}') AS setting_values
  FROM users u JOIN realms r ON r.id = u.realm_id LEFT JOIN user_settings s ON s.user_id = u.id
 WHERE u.id = $1`;

interface UserRow {
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
}

interface Row extends UserRow {
  profile_values: [number, string, string | null][];
}

interface PresenceRow extends UserRow {
  presence_disabled: boolean;
  setting_values: Record<string, unknown>;
}

function userOf(row: UserRow): User {
  return {
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
  };
}

export class SqlOwnUserRead implements OwnUserRead {
  private readonly pool: pg.Pool;
  /** Kept prepared by name, except through a transaction-mode PgBouncer (docs/architecture.md). */
  private readonly name: string | undefined;
  private readonly presenceName: string | undefined;

  constructor(url: string, max: number) {
    this.pool = new pg.Pool({ connectionString: url, max });
    this.pool.on('error', () => undefined);
    const named = new URL(url).searchParams.get('pgbouncer') !== 'true';
    const nameOf = (prefix: string, text: string) =>
      named ? `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}` : undefined;
    this.name = nameOf('own_user', OWN_USER);
    this.presenceName = nameOf('presence_facts', PRESENCE_FACTS);
  }

  async ownUser(userId: number): ReturnType<OwnUserRead['ownUser']> {
    if (!validId(userId)) return null;
    const { rows } = await this.pool.query<Row>({ name: this.name, text: OWN_USER, values: [userId] });
    const row = rows[0];
    if (!row) return null;
    return {
      user: userOf(row),
      profileValues: row.profile_values.map(([fieldId, value, renderedValue]) => ({
        fieldId,
        userId: row.id,
        value,
        renderedValue,
      })),
    };
  }

  async presenceFacts(userId: number): Promise<PresenceFacts | null> {
    if (!validId(userId)) return null;
    const { rows } = await this.pool.query<PresenceRow>({
      name: this.presenceName,
      text: PRESENCE_FACTS,
      values: [userId],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      user: userOf(row),
      realm: { id: row.realm_id, presenceDisabled: row.presence_disabled },
      settingValues: row.setting_values,
    };
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
