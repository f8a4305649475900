import { createHash } from 'node:crypto';
import type { ExportData } from './data.js';

/** Zulip's Recipient types. */
const PERSONAL = 1;
const STREAM = 2;
const DIRECT_MESSAGE_GROUP = 3;

/** Zulip's get_direct_message_group_hash. */
export function directMessageGroupHash(userIds: readonly number[]): string {
  return createHash('sha1')
    .update([...userIds].sort((a, b) => a - b).join(','))
    .digest('hex');
}

/**
 * Zulip's recipient tables of an export (zerver_recipient, zerver_subscription, zerver_huddle): one personal
 * recipient per user, one per channel, and one per direct message group of three or more, made as the messages
 * addressed to it are written.
 */
export class ExportRecipients {
  readonly recipients: Record<string, unknown>[] = [];
  readonly subscriptions: Record<string, unknown>[] = [];
  readonly huddles: Record<string, unknown>[] = [];
  private nextRecipient = 1;
  private readonly personal = new Map<number, number>();
  private readonly channelRecipient = new Map<number, number>();
  private readonly huddleRecipient = new Map<string, number>();

  constructor(private readonly data: Pick<ExportData, 'users' | 'channels' | 'subscriptions'>) {
    for (const u of data.users) {
      this.personal.set(u.id, this.nextRecipient);
      this.recipients.push({ id: this.nextRecipient++, type: PERSONAL, type_id: u.id });
    }
    for (const c of data.channels) {
      this.channelRecipient.set(c.id, this.nextRecipient);
      this.recipients.push({ id: this.nextRecipient++, type: STREAM, type_id: c.id });
    }
    for (const u of data.users) this.subscribe(u.id, this.personal.get(u.id)!);
    for (const s of data.subscriptions) {
      this.subscribe(s.userId, this.channelRecipient.get(s.channelId)!, {
        active: s.active,
        is_muted: s.isMuted,
        color: s.color,
        pin_to_top: s.pinToTop,
        desktop_notifications: s.desktopNotifications,
        audible_notifications: s.audibleNotifications,
        push_notifications: s.pushNotifications,
        email_notifications: s.emailNotifications,
        wildcard_mentions_notify: s.wildcardMentionsNotify,
      });
    }
  }

  /** A channel's recipient id. */
  channel(channelId: number): number | undefined {
    return this.channelRecipient.get(channelId);
  }

  /** The recipient a message is addressed to; a direct message group's first message makes it and its subscriptions. */
  of(m: ExportData['messages'][number]): number {
    if (m.channelId !== null) return this.channelRecipient.get(m.channelId)!;
    const ids = m.dmUserIds ?? [m.senderId];
    if (ids.length <= 2) {
      const other = ids.find((id) => id !== m.senderId) ?? m.senderId;
      return this.personal.get(other)!;
    }
    const key = ids.join(',');
    let rid = this.huddleRecipient.get(key);
    if (rid === undefined) {
      rid = this.nextRecipient++;
      const huddleId = this.huddles.length + 1;
      this.huddles.push({
        id: huddleId,
        huddle_hash: directMessageGroupHash(ids),
        group_size: ids.length,
        recipient: rid,
      });
      this.recipients.push({ id: rid, type: DIRECT_MESSAGE_GROUP, type_id: huddleId });
      this.huddleRecipient.set(key, rid);
      for (const id of ids) this.subscribe(id, rid);
    }
    return rid;
  }

  private subscribe(userId: number, recipient: number, extra: Record<string, unknown> = {}): void {
    this.subscriptions.push({
      id: this.subscriptions.length + 1,
      user_profile: userId,
      recipient,
      active: true,
      is_user_active: this.data.users.find((u) => u.id === userId)?.isActive ?? true,
      is_muted: false,
      color: '#c2c2c2',
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
      ...extra,
    });
  }
}
