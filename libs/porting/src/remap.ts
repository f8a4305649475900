import type { GroupRef } from './model.js';
import type { IdMaps, SourceStructure } from './sources/source.js';

function ref(value: GroupRef, ids: IdMaps): GroupRef {
  if ('system' in value) return value;
  if ('group' in value) return { group: ids.group(value.group) };
  return {
    members: value.members.map(ids.user),
    subgroups: value.subgroups.map(ids.group),
    ...(value.systemSubgroups ? { systemSubgroups: value.systemSubgroups } : {}),
  };
}

function refs(values: Record<string, GroupRef>, ids: IdMaps): Record<string, GroupRef> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, ref(v, ids)]));
}

/** The structure with the final ids the owning services allocated in place of the export's local ones. */
export function remapStructure(s: SourceStructure, ids: IdMaps): SourceStructure {
  return {
    realm: {
      ...s.realm,
      permissions: refs(s.realm.permissions, ids),
      channelSettings: Object.fromEntries(
        Object.entries(s.realm.channelSettings).map(([k, v]) => [k, v === null ? null : ids.channel(v)]),
      ),
    },
    users: s.users.map((u) => ({
      ...u,
      id: ids.user(u.id),
      botOwnerId: u.botOwnerId === null ? null : ids.user(u.botOwnerId),
      profile: u.profile.map((p) => ({ ...p, fieldId: ids.field(p.fieldId) })),
      mutedUsers: u.mutedUsers.map((m) => ({ ...m, userId: ids.user(m.userId) })),
    })),
    profileFields: s.profileFields.map((f) => ({ ...f, id: ids.field(f.id) })),
    emoji: s.emoji.map((e) => ({ ...e, id: ids.emoji(e.id), authorId: e.authorId === null ? null : ids.user(e.authorId) })),
    channels: s.channels.map((c) => ({
      ...c,
      id: ids.channel(c.id),
      creatorId: c.creatorId === null ? null : ids.user(c.creatorId),
      permissions: refs(c.permissions, ids),
      subscribers: c.subscribers.map((sub) => ({ ...sub, userId: ids.user(sub.userId) })),
    })),
    groups: s.groups.map((g) => ({
      ...g,
      id: ids.group(g.id),
      creatorId: g.creatorId === null ? null : ids.user(g.creatorId),
      members: g.members.map(ids.user),
      subgroups: g.subgroups.map(ids.group),
      settings: refs(g.settings, ids),
    })),
    userTopics: s.userTopics.map((t) => ({ ...t, userId: ids.user(t.userId), channelId: ids.channel(t.channelId) })),
  };
}
