/** /register's answer into the store: Zulip's initial state, the RESET before the events that follow. */
import { isAdministratorRole, ROLE_MEMBER } from '@confab/zulip';
import { batch } from '@preact/signals';
import { unicodeEmojiChoices } from '../lib/emoji-data';
import { applyAdminRegister } from './admin';
import { byName } from './channels';
import { applyIntegrationsRegister } from './integrations';
import { realmEmojiChoices, unreadFromRegister } from './model';
import { applyPersonalRegister } from './personal';
import type { RegisterState } from './register-state';
import {
  dmConversations,
  drafts,
  isAdmin,
  loaded,
  me,
  presence,
  presenceTimes,
  realmEmoji,
  scheduled,
  streams,
  subscriptions,
  unicodeEmoji,
  unread,
  users,
} from './state';

export type { RegisterState } from './register-state';

export function applyRegister(state: RegisterState): void {
  const self = state.user_id ?? 0;
  batch(() => {
    me.value = self;
    // Zulip's /register says is_admin (owners too); it has no top-level role.
    isAdmin.value = state.is_admin === true || isAdministratorRole(state.role ?? ROLE_MEMBER);
    users.value = new Map((state.realm_users ?? []).map((u) => [u.user_id, u]));
    subscriptions.value = [...(state.subscriptions ?? [])].sort(byName);
    streams.value = [...(state.streams ?? [])].sort(byName);
    realmEmoji.value = realmEmojiChoices(state.realm_emoji);
    drafts.value = state.drafts ?? [];
    scheduled.value = state.scheduled_messages ?? [];
    presence.value = new Map(Object.entries(state.presences ?? {}).map(([id, p]) => [Number(id), p]));
    presenceTimes.value = {
      ping: state.server_presence_ping_interval_seconds ?? 60,
      offline: state.server_presence_offline_threshold_seconds ?? 140,
    };
    unread.value = unreadFromRegister(state.unread_msgs, self);
    dmConversations.value = (state.recent_private_conversations ?? [])
      .sort((a, b) => b.max_message_id - a.max_message_id)
      .map((c) => [...c.user_ids].sort((a, b) => a - b));
    applyPersonalRegister(state);
    applyAdminRegister(state);
    applyIntegrationsRegister(state);
    loaded.value = true;
  });
  void unicodeEmojiChoices(state.server_emoji_data_url)
    .then((list) => (unicodeEmoji.value = list))
    .catch(() => undefined);
}
