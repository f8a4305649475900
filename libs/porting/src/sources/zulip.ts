import { ImportError } from '../loader.js';
import type { GroupRef, ModelEmoji } from '../model.js';
import type { IdMaps, MessageSink, SourceOptions, SourceReader, SourceStructure } from './source.js';
import { readChannels, readUserTopics } from './zulip-channels.js';
import { ZulipGroups } from './zulip-groups.js';
import { readMessages } from './zulip-messages.js';
import { localUsers, newZulipIds, num, rows, str, ZulipExportDir, type LocalUser, type Row } from './zulip-tables.js';
import { readUsers } from './zulip-users.js';

/** Fields of zerver_realm that are not organization settings. */
const REALM_FIELDS = new Set(['id', 'string_id', 'name', 'description', 'date_created', 'deactivated', 'uuid']);

/**
 * Zulip's own export format (zerver/lib/export.py, read as zerver/lib/import_realm.py reads it): realm.json with its
 * `zerver_*` tables, messages-000001.json … with zerver_message and zerver_usermessage, attachment.json, and
 * uploads/, avatars/ and emoji/ with their records.json. Everything it carries that Confab keeps comes across:
 * read and starred state (the per-user rows as exported), personal settings, user groups, topic visibility, custom
 * profile fields, mutes, alert words, statuses, linkifiers and playgrounds.
 */
export class ZulipReader implements SourceReader {
  private readonly dir: ZulipExportDir;
  private realmData: Row = {};
  /** The export's ids to local ones, for the messages. */
  private readonly ids = newZulipIds();
  private messageFiles: string[] = [];
  private count = 0;

  constructor(private readonly options: SourceOptions) {
    this.dir = new ZulipExportDir(options.root);
  }

  get total(): number {
    return this.count;
  }

  async structure(): Promise<SourceStructure> {
    if (!this.dir.has('realm.json')) throw new ImportError('realm.json is missing: not a Zulip export');
    const data = await this.dir.json('realm.json');
    this.realmData = data;
    const realm = rows(data, 'zerver_realm')[0];
    if (!realm) throw new ImportError('no zerver_realm row', 'realm.json');

    const { users, profileFields } = await readUsers(data, this.dir, this.ids, this.options.domain);
    const local = localUsers(this.ids.users);
    const emoji = await this.emoji(data, local);
    const groups = new ZulipGroups(data, this.ids.groups, local);
    const groupModels = groups.models();
    const channels = readChannels(data, this.ids, local, groups);
    const userTopics = readUserTopics(data, this.ids, local);

    // The organization's settings by Zulip's names; group- and channel-valued ones by reference.
    const settings: Record<string, unknown> = {};
    const permissions: Record<string, GroupRef> = {};
    const channelSettings: Record<string, number | null> = {};
    for (const [k, v] of Object.entries(realm)) {
      if (REALM_FIELDS.has(k)) continue;
      if (/_group$/.test(k) && (typeof v === 'number' || v === null)) {
        const ref = groups.ref(v);
        if (ref) permissions[k] = ref;
      } else if (/_stream$|_channel$/.test(k)) {
        channelSettings[k] = v === null || v === undefined ? null : (this.ids.channels.get(Number(v)) ?? null);
      } else settings[k] = v;
    }

    this.messageFiles = this.dir.messageFiles();
    for (const file of this.messageFiles) {
      const part = await this.dir.json(file);
      this.count += rows(part, 'zerver_message').length;
    }

    return {
      realm: {
        source: 'zulip',
        name: str(realm.name),
        description: str(realm.description),
        dateCreated: num(realm.date_created) ?? Date.now() / 1000,
        settings,
        userSettingsDefaults: (() => {
          const defaults = { ...(rows(data, 'zerver_realmuserdefault')[0] ?? {}) };
          delete defaults.id;
          delete defaults.realm;
          return defaults;
        })(),
        permissions,
        channelSettings,
        linkifiers: rows(data, 'zerver_realmfilter')
          .sort((a, b) => Number(a.order ?? a.id) - Number(b.order ?? b.id))
          .map((f) => ({ pattern: str(f.pattern), urlTemplate: str(f.url_template) || str(f.url_format_string) })),
        playgrounds: rows(data, 'zerver_realmplayground').map((p) => ({
          name: str(p.name),
          pygmentsLanguage: str(p.pygments_language),
          urlTemplate: str(p.url_template) || `${str(p.url_prefix)}{code}`,
        })),
      },
      users,
      profileFields,
      emoji,
      channels,
      groups: groupModels,
      userTopics,
    };
  }

  messages(ids: IdMaps, sink: MessageSink): Promise<void> {
    return readMessages(this.dir, this.realmData, this.messageFiles, this.ids, ids, sink);
  }

  /** Custom emoji, with their images from emoji/. */
  private async emoji(data: Row, local: LocalUser): Promise<ModelEmoji[]> {
    const emojiRecords = await this.dir.records('emoji');
    const emoji: ModelEmoji[] = [];
    for (const e of rows(data, 'zerver_realmemoji')) {
      const record = emojiRecords.find(
        (r) => str(r.file_name) === str(e.file_name) && !str(r.path).endsWith('.original'),
      );
      const original = emojiRecords.find(
        (r) => str(r.file_name) === str(e.file_name) && str(r.path).endsWith('.original'),
      );
      const file = original ?? record;
      if (!file) throw new ImportError('the image is missing from emoji/records.json', `emoji ${str(e.name)}`);
      const id = emoji.length + 1;
      this.ids.emoji.set(Number(e.id), id);
      emoji.push({
        id,
        name: str(e.name),
        authorId: e.author === null || e.author === undefined ? null : local(e.author),
        file: `emoji/${str(file.path)}`,
        deactivated: e.deactivated === true,
      });
    }
    return emoji;
  }
}
