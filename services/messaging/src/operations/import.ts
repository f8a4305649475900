import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { contracts, parseEnvelope } from '@confab/events';
import type { ImportEvent, LoaderProgress, ServiceLoader, StageInput, StageResult } from '@confab/porting';
import pg from 'pg';
import { applyGroupMembersChanged, replaceGroupMembers } from '../repositories/group-members.sql.js';
import { pickUserSettings, ReadModelRepository } from '../repositories/readmodel.repository.js';
import type { Store } from '../repositories/store.js';
import { ImportDatabase } from './import-db.js';
import { stageMessaging } from './import-stage.js';

export interface MessagingImportOptions {
  url: string;
  /** The file store's directory (MESSAGING_UPLOADS_DIR, else <CONFAB_DATA_DIR>/uploads). */
  uploadsDir: string;
}

/**
 * The messaging service's part of an import (docs/architecture.md, "Moving organizations in and out"): its copies
 * of the organization, its users, their settings, groups, custom emoji, mutes and alert words, applied from the
 * owners' events as its consumers apply them; then channels, subscriptions, messages rendered as a send renders
 * them, their per-user rows by Zulip's import rule, reactions, uploads and topic visibility, in bulk. One
 * transaction, kept open until the import commits.
 */
export class MessagingImportLoader implements ServiceLoader {
  private readonly db: ImportDatabase;
  private readonly readModel: ReadModelRepository;
  private readonly written: string[] = [];

  constructor(private readonly options: MessagingImportOptions) {
    this.db = new ImportDatabase(options.url);
    // The read model's writes take the transaction as an argument; the store is only for its reads, unused here.
    this.readModel = new ReadModelRepository({ db: this.db.prisma } as unknown as Store);
  }

  async allocate(request: Record<string, number>): Promise<Record<string, number[]>> {
    const out: Record<string, number[]> = {};
    for (const [kind, count] of Object.entries(request)) {
      if (kind !== 'channels') throw new Error(`messaging allocates no ${kind}`);
      const rows = await this.db.query<{ id: number }>(
        `SELECT nextval('channels_id_seq')::int AS id FROM generate_series(1, $1::int)`,
        [count],
      );
      out[kind] = rows.map((r) => r.id);
    }
    return out;
  }

  /** The owners' events, applied to this service's copies as its consumers (events/consumers.ts) apply them. */
  async apply(events: ImportEvent[]): Promise<void> {
    const tx = await this.db.tx();
    const rm = this.readModel;
    for (const raw of events) {
      switch (raw.type) {
        case contracts.realmCreated.type:
          await rm.upsertRealm(tx, parseEnvelope(contracts.realmCreated, raw).payload.realm);
          break;
        case contracts.userCreated.type:
          await rm.upsertUser(tx, parseEnvelope(contracts.userCreated, raw).payload.user);
          break;
        case contracts.userSettingsChanged.type: {
          const { payload } = parseEnvelope(contracts.userSettingsChanged, raw);
          await rm.applyUserSettings(tx, payload.user_id, pickUserSettings(payload.settings));
          break;
        }
        case contracts.groupCreated.type: {
          const { payload } = parseEnvelope(contracts.groupCreated, raw);
          await rm.upsertGroup(tx, payload.group);
          await replaceGroupMembers(tx, payload.flattened);
          break;
        }
        case contracts.groupUpdated.type:
          await rm.upsertGroup(tx, parseEnvelope(contracts.groupUpdated, raw).payload.group);
          break;
        case contracts.groupMembersChanged.type:
          await applyGroupMembersChanged(tx, parseEnvelope(contracts.groupMembersChanged, raw).payload);
          break;
        case contracts.realmEmojiAdded.type: {
          const { payload } = parseEnvelope(contracts.realmEmojiAdded, raw);
          await rm.upsertRealmEmoji(tx, payload.realm_id, Object.values(payload.realm_emoji));
          break;
        }
        case contracts.mutedUserAdded.type: {
          const { payload } = parseEnvelope(contracts.mutedUserAdded, raw);
          // No messages yet, so nothing to mark read as the consumer does.
          await rm.addMutedUser(tx, {
            userId: payload.user_id,
            mutedUserId: payload.muted_user_id,
            realmId: payload.realm_id,
          });
          break;
        }
        case contracts.alertWordsChanged.type: {
          const { payload } = parseEnvelope(contracts.alertWordsChanged, raw);
          await rm.setAlertWords(tx, payload.user_id, payload.realm_id, payload.alert_words);
          break;
        }
        default:
          break;
      }
    }
  }

  async stage(input: StageInput, progress: (p: LoaderProgress) => void): Promise<StageResult> {
    return stageMessaging(this.db, input, progress, {
      uploadsDir: this.options.uploadsDir,
      wrote: (path) => this.written.push(path),
    });
  }

  async commit(): Promise<void> {
    await this.db.commit();
    this.written.length = 0;
  }

  async abort(): Promise<void> {
    await this.db.abort();
    for (const path of this.written.splice(0)) await rm(path, { force: true }).catch(() => undefined);
  }

  /** Removes an organization's rows (a committed part of an import whose later commit failed, or its leftovers). */
  async purge(realmId: number): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      const statements = [
        `DELETE FROM user_messages WHERE message_id IN (SELECT id FROM messages WHERE realm_id = $1)`,
        `DELETE FROM reactions WHERE message_id IN (SELECT id FROM messages WHERE realm_id = $1)`,
        `DELETE FROM attachment_messages WHERE attachment_id IN (SELECT id FROM attachments WHERE realm_id = $1)`,
        `DELETE FROM submessages WHERE message_id IN (SELECT id FROM messages WHERE realm_id = $1)`,
        `DELETE FROM messages WHERE realm_id = $1`,
        `DELETE FROM attachments WHERE realm_id = $1`,
        `DELETE FROM user_topics WHERE channel_id IN (SELECT id FROM channels WHERE realm_id = $1)`,
        `DELETE FROM subscriptions WHERE channel_id IN (SELECT id FROM channels WHERE realm_id = $1)`,
        `DELETE FROM default_channels WHERE realm_id = $1`,
        `DELETE FROM channels WHERE realm_id = $1`,
        `DELETE FROM recipients WHERE realm_id = $1`,
        `DELETE FROM linkifiers WHERE realm_id = $1`,
        `DELETE FROM code_playgrounds WHERE realm_id = $1`,
        `DELETE FROM group_members WHERE group_id IN (SELECT id FROM user_groups WHERE realm_id = $1)`,
        `DELETE FROM user_groups WHERE realm_id = $1`,
        `DELETE FROM realm_emoji WHERE realm_id = $1`,
        `DELETE FROM muted_users WHERE realm_id = $1`,
        `DELETE FROM alert_words WHERE realm_id = $1`,
        `DELETE FROM users WHERE realm_id = $1`,
        `DELETE FROM realms WHERE id = $1`,
      ];
      for (const sql of statements) await client.query(sql, [realmId]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await client.end();
    }
    await rm(join(this.options.uploadsDir, String(realmId)), { recursive: true, force: true });
  }

  async realms(): Promise<number[]> {
    const client = new pg.Client({ connectionString: this.options.url });
    await client.connect();
    try {
      return (await client.query<{ id: number }>('SELECT id FROM realms')).rows.map((r) => r.id);
    } finally {
      await client.end();
    }
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
