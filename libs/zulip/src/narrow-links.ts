/**
 * Zulip's narrow links (https://zulip.com/api/zulip-urls): `#narrow/channel/<id>-<name>/topic/<topic>`,
 * `#narrow/dm/<ids>-<slug>`, each component hash-encoded. One encoder for the server's links (rendered Markdown,
 * notices, emails) and the web client's, so a link written by either opens in the other and in Zulip's apps.
 */

/**
 * Zulip's encode_hash_component (zerver/lib/url_encoding.py): percent-encoding of everything but letters, digits
 * and `-_.~*` (Python's `quote(s, safe="*")`), with `%` then written `.` (and `.` itself `.2E`), because some
 * browsers decode the fragment. Zulip's web client (internal_url.encodeHashComponent) differs only in leaving `!`
 * and `'` bare; both decode the same.
 */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/[%.]/g, (c) => (c === '%' ? '.' : '.2E'));
}

/**
 * Zulip's decodeHashComponent (`.` back to `%`, then percent-decoding); a component that is not in that encoding
 * (a hand-written link) is percent-decoded where that works, else kept as it is.
 */
export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  }
}

/** Zulip's encode_channel: `12-Verona`, spaces of the name as `-`, the rest hash-encoded. */
export function channelSlug(channelId: number, name: string): string {
  return `${channelId}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

/** Characters a user's name loses in a link (Zulip's get_slug_from_full_name): runs of them become one `-`. */
const NAME_BREAKS = /[ "%/<>`\p{Cc}\p{Cf}\p{Co}\p{Cn}]+/gu;

/** The `dm` operand of a conversation with one user (Zulip's pm_with_url): `9-King-Hamlet`. */
export function userSlug(userId: number, fullName: string): string {
  return `${userId}-${encodeHashComponent(fullName.replace(NAME_BREAKS, '-'))}`;
}

/** The `dm` operand of a group conversation, by the other members' ids (Zulip's pm_with_url): `10,11-group`. */
export function groupDmSlug(userIds: readonly number[]): string {
  return `${sortedIds(userIds).join(',')}-group`;
}

/**
 * The `dm` operand of a conversation by all its participants' ids (Zulip's encode_user_ids, as pm_message_url
 * uses it): `5,9` for two, `5,9,12-group` from three on.
 */
export function participantsSlug(userIds: readonly number[]): string {
  const ids = sortedIds(userIds).join(',');
  return userIds.length >= 3 ? `${ids}-group` : ids;
}

/** `#narrow/channel/12-Verona` (Zulip's stream_narrow_url without the organization's URL). */
export function channelNarrowHash(channel: { id: number; name: string }): string {
  return `#narrow/channel/${channelSlug(channel.id, channel.name)}`;
}

/** `#narrow/channel/12-Verona/topic/castle` (Zulip's topic_narrow_url without the organization's URL). */
export function topicNarrowHash(channel: { id: number; name: string }, topic: string): string {
  return `${channelNarrowHash(channel)}/topic/${encodeHashComponent(topic)}`;
}

const base = (realmUrl: string) => realmUrl.replace(/\/$/, '');

/**
 * The web address of a message in its channel's topic (Zulip's stream_message_url): `near` the message, or `with`
 * it for a link to its conversation that follows the message when it moves.
 */
export function messageNarrowUrl(
  realmUrl: string,
  channel: { id: number; name: string },
  topic: string,
  messageId: number,
  operator: 'near' | 'with' = 'near',
): string {
  return `${base(realmUrl)}/${topicNarrowHash(channel, topic)}/${operator}/${messageId}`;
}

/** The web address of a direct message (Zulip's pm_message_url): its participants' ids, then the message. */
export function directMessageUrl(
  realmUrl: string,
  participantIds: readonly number[],
  messageId: number,
  operator: 'near' | 'with' = 'near',
): string {
  return `${base(realmUrl)}/#narrow/dm/${participantsSlug(participantIds)}/${operator}/${messageId}`;
}

function sortedIds(ids: readonly number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}
