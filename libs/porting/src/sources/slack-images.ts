import { ImportError } from '../loader.js';
import type { ModelEmoji, ModelReaction } from '../model.js';
import { RemoteImages } from '../remote.js';
import { readJsonFile, unicodeEmoji } from './source.js';

/**
 * Slack's avatars and custom emoji as Zulip's Slack importer takes them (zerver/data_import/slack.py,
 * build_avatar_url and build_realmemoji; import_util.py, process_avatars and process_emojis): images Slack hosts,
 * named by URL in the users' profiles and in the answer of Slack's `emoji.list`, fetched at import time.
 */

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Profile image fields, the largest first. */
const IMAGE_FIELDS = ['image_original', 'image_1024', 'image_512', 'image_192', 'image_72', 'image_48', 'image_32'];

/** Slack's default pictures: Gravatar's, and Slack's own stock images (static assets on a.slack-edge.com). */
function isDefaultPicture(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  return host === 'gravatar.com' || host.endsWith('.gravatar.com') || host === 'a.slack-edge.com';
}

/**
 * The URL of a Slack user's own picture, or null when they have none (the default avatar stays). Zulip's
 * build_avatar_url: a person's picture by their avatar hash on ca.slack-edge.com (at 512 px, as process_avatars asks),
 * an integration bot's `image_72`. A profile's `image_*` URLs name the picture directly and come first; Gravatar
 * pictures (hashes starting with `g`, Gravatar URLs) and Slack's stock ones stay default, as does a profile Slack
 * marks `is_custom_image: false`.
 */
export function slackAvatarUrl(user: Json & { id: string }): string | null {
  const profile = (user.profile ?? {}) as Json;
  if (profile.is_custom_image === false) return null;
  const hash = str(profile.avatar_hash);
  if (hash.startsWith('g')) return null;
  const fields = user.is_integration_bot === true ? ['image_72'] : IMAGE_FIELDS;
  const direct = fields.map((f) => str(profile[f])).find((u) => u !== '');
  if (direct) return isDefaultPicture(direct) || !/^https?:\/\//i.test(direct) ? null : direct;
  const team = str(user.team_id) || str(profile.team);
  if (hash && team) return `https://ca.slack-edge.com/${team}-${user.id}-${hash}-512`;
  return null;
}

/** The `emoji` map of Slack's emoji.list answer (`{"ok": true, "emoji": {...}}`), or the map alone. */
export async function readSlackEmoji(path: string): Promise<Record<string, string>> {
  const answer = await readJsonFile<Json>(path, path);
  const map = (answer && typeof answer.emoji === 'object' && answer.emoji !== null ? answer.emoji : answer) as Json;
  if (!map || typeof map !== 'object' || Array.isArray(map))
    throw new ImportError('expected the answer of Slack’s emoji.list (an object of names and URLs)', path);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(map)) if (name !== 'ok' && typeof value === 'string') out[name] = value;
  return out;
}

/** A reaction's emoji without its user. */
export type ReactionEmoji = Omit<ModelReaction, 'userId'>;

/**
 * The organization's custom emoji from emoji.list: every image fetched becomes a realm emoji (ids local to the
 * import, in the list's order, as Zulip numbers them); an alias (`alias:<name>`) is no emoji of its own but the name
 * of another one, custom or Unicode, and reactions by it count as reactions by that one.
 */
export class SlackCustomEmoji {
  readonly emoji: ModelEmoji[] = [];
  private readonly ids = new Map<string, number>();
  private readonly aliases = new Map<string, string>();

  static async fetch(list: Record<string, string>, images: RemoteImages): Promise<SlackCustomEmoji> {
    const out = new SlackCustomEmoji();
    const named = Object.entries(list).filter(([, url]) => /^https?:\/\//i.test(url));
    for (const [name, value] of Object.entries(list))
      if (value.startsWith('alias:')) out.aliases.set(name, value.slice('alias:'.length));
    const files = await images.fetchAll(
      named.map(([name, url], i) => ({ what: `custom emoji :${name}:`, url, name: `emoji/${i + 1}` })),
    );
    for (const [i, [name]] of named.entries()) {
      const file = files[i];
      if (!file) continue;
      const id = out.emoji.length + 1;
      out.emoji.push({ id, name, authorId: null, file, fetched: true, deactivated: false });
      out.ids.set(name, id);
    }
    return out;
  }

  /**
   * A Slack emoji name as a reaction (Zulip's build_reactions: Unicode first, then the organization's own), its
   * aliases followed; undefined when neither knows it (Zulip leaves those reactions out). `emojiCode` of a custom one
   * is its local id, mapped to the final one by `emojiId`.
   */
  reaction(name: string, emojiId: (local: number) => number): ReactionEmoji | undefined {
    let current = name;
    for (let hops = 0; hops < 5; hops++) {
      const unicode = unicodeEmoji(current);
      if (unicode) return { emojiName: unicode.name, emojiCode: unicode.code, reactionType: 'unicode_emoji' };
      const id = this.ids.get(current);
      if (id !== undefined) return { emojiName: current, emojiCode: String(emojiId(id)), reactionType: 'realm_emoji' };
      const target = this.aliases.get(current);
      if (target === undefined) return undefined;
      current = target;
    }
    return undefined;
  }
}
