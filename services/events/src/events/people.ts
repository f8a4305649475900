import { contracts, gravatarUrl, type PayloadOf } from '@confab/events';
import {
  ROLE_ADMINISTRATOR,
  ROLE_GUEST,
  ROLE_OWNER,
  type ClientEvent,
  type PersonDict,
  type PresenceEvent,
  type RealmUserEvent,
} from '@confab/zulip';

const { canSeeDeliveryEmail } = contracts;
import { acceptsType } from '../domain/descriptor.js';
import type { QueueContext } from '../domain/shaping.js';
import type { Builder, Delivery } from './fanout.js';

/** An event for every queue of the realm that takes its type. */
function realmWide(realmId: number, type: string, events: Builder): Delivery[] {
  return [{ realm: realmId, build: (ctx) => (acceptsType(ctx.queue, type) ? events(ctx) : []) }];
}

/** An event for the user's own queues that take its type. */
function own(userId: number, type: string, event: ClientEvent): Delivery[] {
  return [{ users: [userId], build: (ctx) => (acceptsType(ctx.queue, type) ? [event] : []) }];
}

/**
 * Zulip's `presence` event (process_presence_event), sent to the whole organization when a user comes online or
 * switches presence sharing, in one of three shapes per queue: the modern one (`presences` keyed by user id) for
 * clients with simplified_presence_events, else the legacy one-client (`website`) shape the mobile apps parse,
 * with the deprecated email unless the queue registered with slim_presence.
 */
export function presenceChanged(payload: PayloadOf<typeof contracts.presenceChanged>): Delivery[] {
  const presence = {
    website: { client: 'website', status: payload.status, timestamp: payload.timestamp, pushable: false },
  };
  const legacy: PresenceEvent = {
    type: 'presence',
    user_id: payload.user_id,
    email: payload.email,
    server_timestamp: payload.server_timestamp,
    presence,
  };
  const slim: PresenceEvent = {
    type: 'presence',
    user_id: payload.user_id,
    server_timestamp: payload.server_timestamp,
    presence,
  };
  const modern: PresenceEvent = {
    type: 'presence',
    presences: {
      [String(payload.user_id)]: {
        active_timestamp: payload.active_timestamp,
        idle_timestamp: payload.idle_timestamp,
      },
    },
  };
  return realmWide(payload.realm_id, 'presence', (ctx) => {
    if (ctx.queue.capabilities.simplifiedPresenceEvents) return [modern];
    return [ctx.queue.slimPresence ? slim : legacy];
  });
}

/** Zulip's `user_status` event: the user id and the fields that were set. */
export function userStatusChanged(payload: PayloadOf<typeof contracts.userStatusChanged>): Delivery[] {
  const { realm_id, ...fields } = payload;
  const event: ClientEvent = { type: 'user_status', ...fields };
  return realmWide(realm_id, 'user_status', () => [event]);
}

/** Zulip's `muted_users` event: the user's whole list, to their own queues. */
export function mutedUsersChanged(payload: PayloadOf<typeof contracts.mutedUserAdded>): Delivery[] {
  return own(payload.user_id, 'muted_users', { type: 'muted_users', muted_users: payload.muted_users });
}

/** Zulip's `alert_words` event: the user's whole list, to their own queues. */
export function alertWordsChanged(payload: PayloadOf<typeof contracts.alertWordsChanged>): Delivery[] {
  return own(payload.user_id, 'alert_words', { type: 'alert_words', alert_words: payload.alert_words });
}

/** Zulip's `realm_emoji` update event: every custom emoji of the organization after the change. */
export function realmEmojiChanged(payload: PayloadOf<typeof contracts.realmEmojiAdded>): Delivery[] {
  const event: ClientEvent = { type: 'realm_emoji', op: 'update', realm_emoji: payload.realm_emoji };
  return realmWide(payload.realm_id, 'realm_emoji', () => [event]);
}

/** Django's isoformat of an aware datetime, as Zulip's user objects carry `date_joined`. */
const isoformat = (iso: string) => new Date(iso).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');

/** Zulip's user object (realm_user add), shaped for the queue's client_gravatar choice. */
function person(user: contracts.UserRecord, ctx: QueueContext): PersonDict {
  const record: PersonDict = {
    user_id: user.user_id,
    email: user.email,
    // Only to those the user's email_address_visibility admits (Zulip sends null to the others).
    delivery_email: canSeeDeliveryEmail(ctx.queue, {
      userId: user.user_id,
      emailAddressVisibility: user.email_address_visibility ?? 1,
    })
      ? user.delivery_email
      : null,
    full_name: user.full_name,
    date_joined: isoformat(user.date_joined),
    is_active: user.is_active,
    is_owner: user.role === ROLE_OWNER,
    is_admin: user.role <= ROLE_ADMINISTRATOR,
    is_guest: user.role === ROLE_GUEST,
    is_bot: user.is_bot,
    bot_type: user.bot_type,
    role: user.role,
    timezone: user.timezone,
    // An uploaded avatar's URL always; else the Gravatar of the API email, as the settings service and clients
    // under client_gravatar hash it (never a hidden address). As GET /users gives them (settings' userPerson).
    avatar_url: user.avatar_url ?? (ctx.queue.clientGravatar ? null : gravatarUrl(user.email, user.avatar_version)),
    avatar_version: user.avatar_version ?? 1,
    is_imported_stub: user.is_imported_stub ?? false,
  };
  if (user.is_bot) record.bot_owner_id = user.bot_owner_id;
  else record.profile_data = {};
  return record;
}

export function userCreated(payload: PayloadOf<typeof contracts.userCreated>): Delivery[] {
  // A system bot is no member of the organization: clients know it from `cross_realm_bots`.
  if (payload.user.is_system_bot) return [];
  return realmWide(payload.user.realm_id, 'realm_user', (ctx) => [
    { type: 'realm_user', op: 'add', person: person(payload.user, ctx) },
  ]);
}

/** Zulip's realm_user update events carry one change each; a profile change sends the name and the time zone. */
export function userUpdated(payload: PayloadOf<typeof contracts.userUpdated>): Delivery[] {
  const { user } = payload;
  const events: RealmUserEvent[] = [
    { type: 'realm_user', op: 'update', person: { user_id: user.user_id, full_name: user.full_name } },
    { type: 'realm_user', op: 'update', person: { user_id: user.user_id, timezone: user.timezone } },
  ];
  return realmWide(user.realm_id, 'realm_user', () => events);
}

export function userRoleChanged(payload: PayloadOf<typeof contracts.userRoleChanged>): Delivery[] {
  const { user } = payload;
  const event: RealmUserEvent = {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, role: user.role },
  };
  return realmWide(user.realm_id, 'realm_user', () => [event]);
}

/**
 * Zulip's notify_avatar_url_change: the new picture to everyone, its URL also to client_gravatar queues (a Gravatar
 * default too, so they need no email), with the 500×500 one as avatar_url_medium.
 */
export function userAvatarChanged(payload: PayloadOf<typeof contracts.userAvatarChanged>): Delivery[] {
  const { user_id, realm_id, avatar_source, avatar_url, avatar_version } = payload;
  const avatar_url_medium = payload.avatar_url_medium ?? avatar_url;
  const person = { avatar_source, avatar_url, avatar_url_medium, avatar_version, user_id };
  const event: RealmUserEvent = { type: 'realm_user', op: 'update', person };
  return realmWide(realm_id, 'realm_user', () => [event]);
}

/** Deactivation and reactivation (Zulip 8+ sends them as updates of `is_active`). */
export function userActiveChanged(payload: PayloadOf<typeof contracts.userDeactivated>): Delivery[] {
  const { user } = payload;
  const event: RealmUserEvent = {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, is_active: user.is_active },
  };
  return realmWide(user.realm_id, 'realm_user', () => [event]);
}
