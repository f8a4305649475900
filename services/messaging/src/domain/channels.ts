import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { basicAccess } from './channel-access.js';
import {
  ChannelNameTaken,
  checkCanCreate,
  checkChannelDescription,
  defaultPermissions,
  insufficientPermission,
  parseRetention,
  renderDescription,
  type ChannelSpec,
  type NewChannelSettings,
} from './channel-rules.js';
import { channelRecord, GroupValueFormatter, subscriptionRecord } from './channel-records.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin, isGuest } from './permissions.js';
import { checkChannelName } from './text.js';
import type { Channel, Subscription, User } from './types.js';
import { makeDefault } from './default-channels.js';
import type { PeopleUnit } from './people.js';
import type { MessagingStore } from './store.js';

/** Zulip's STREAM_ASSIGNMENT_COLORS: each new subscription takes the first color the user does not use yet. */
const COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
];

async function createChannels(
  store: MessagingStore,
  domain: Domain,
  actor: Actor,
  specs: readonly ChannelSpec[],
  settings: NewChannelSettings,
): Promise<Channel[]> {
  const created: Channel[] = [];
  for (const spec of specs) {
    const channel = await store.channels.createChannel({
      realmId: actor.realm.id,
      name: spec.name,
      description: spec.description ?? '',
      renderedDescription: await renderDescription(domain, actor, spec.description ?? ''),
      inviteOnly: settings.inviteOnly,
      isWebPublic: false,
      historyPublicToSubscribers: settings.inviteOnly ? (settings.historyPublicToSubscribers ?? false) : true,
      messageRetentionDays: parseRetention(settings.messageRetentionDays),
      topicsPolicy: settings.topicsPolicy ?? 'inherit',
      creatorId: actor.user.id,
      folderId: settings.folderId ?? null,
      permissions: { ...defaultPermissions(actor.user.id), ...settings.permissions },
    });
    created.push(channel);
  }
  return created;
}

/** Users named by `principals` (ids or emails); anything unknown is Zulip's PrincipalError. */
export async function principalsToUsers(
  domain: Domain,
  actor: Actor,
  principals: readonly (number | string)[],
): Promise<User[]> {
  const ids = principals.filter((p): p is number => typeof p === 'number');
  const emails = principals.filter((p): p is string => typeof p === 'string');
  let byIds = await domain.readModel.usersByIds(actor.realm.id, ids);
  const unknown = ids.filter((id) => !byIds.some((u) => u.id === id));
  // Accounts created a moment ago may not have reached this service by event yet (a few are asked for, not floods).
  if (unknown.length > 0 && unknown.length <= 100) {
    await domain.fetchMissing.users(unknown.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647));
    byIds = await domain.readModel.usersByIds(actor.realm.id, ids);
  }
  const users = [...byIds, ...(await domain.readModel.usersByEmails(actor.realm.id, emails))];
  const byId = new Map(users.filter((u) => u.isActive).map((u) => [u.id, u]));
  const byEmail = new Map([...byId.values()].map((u) => [u.email.toLowerCase(), u]));
  const out = new Map<number, User>();
  for (const principal of principals) {
    const user = typeof principal === 'number' ? byId.get(principal) : byEmail.get(principal.trim().toLowerCase());
    if (!user) {
      throw new ConfabError(`User not authorized to execute queries on behalf of '${principal}'`, {
        code: 'UNAUTHORIZED_PRINCIPAL',
        status: 403,
        data: { principal },
      });
    }
    out.set(user.id, user);
  }
  return [...out.values()];
}

/** Subscribes users (creating their subscription rows with colors) and builds the events. */
async function addSubscriptions(
  store: MessagingStore,
  domain: Domain,
  actor: Actor,
  channels: readonly Channel[],
  users: readonly User[],
  colorFor: Map<string, string>,
): Promise<{ added: Subscription[]; events: OutboxRecord[]; already: { userId: number; channel: Channel }[] }> {
  const inUse = await store.channels.colorsInUse(users.map((u) => u.id));
  const existing = new Map<number, Map<number, Subscription>>();
  const current = await store.channels.subscriptionsOf(
    users.map((u) => u.id),
    channels.map((c) => c.id),
  );
  for (const sub of current) {
    const byChannel = existing.get(sub.userId) ?? new Map<number, Subscription>();
    byChannel.set(sub.channelId, sub);
    existing.set(sub.userId, byChannel);
  }
  const wanted: { userId: number; channelId: number; color: string }[] = [];
  const already: { userId: number; channel: Channel }[] = [];
  for (const user of users) {
    const used = inUse.get(user.id) ?? [];
    for (const channel of channels) {
      const sub = existing.get(user.id)?.get(channel.id);
      if (sub?.active) {
        already.push({ userId: user.id, channel });
        continue;
      }
      const color =
        sub?.color ??
        colorFor.get(channel.name) ??
        COLORS.find((c) => !used.includes(c)) ??
        COLORS[used.length % COLORS.length]!;
      used.push(color);
      wanted.push({ userId: user.id, channelId: channel.id, color });
    }
  }
  const added = await store.channels.subscribe(wanted);
  const events: OutboxRecord[] = [];
  if (added.length > 0) {
    const counts = await store.channels.subscribers(channels.map((c) => c.id));
    const groups = new GroupValueFormatter(domain, actor.realm, store.people);
    const touched = channels.filter((c) => added.some((s) => s.channelId === c.id));
    events.push(
      outboxRecord(
        contracts.subscriptionAdded,
        {
          changes: touched.map((c) => ({
            stream_id: c.id,
            user_ids: added.filter((s) => s.channelId === c.id).map((s) => s.userId),
          })),
          subscriptions: added.map(subscriptionRecord),
          streams: await Promise.all(touched.map((c) => channelRecord(c, counts.get(c.id)?.length ?? 0, groups))),
        },
        { realmId: actor.realm.id, requestId: actor.requestId },
      ),
    );
  }
  return { added, events, already };
}

/** Who can see a channel's existence: everyone but guests for public ones; subscribers and admins otherwise. */
export async function channelAudience(
  domain: Domain,
  actor: Actor,
  channel: Channel,
  subscriberIds: readonly number[],
  people?: PeopleUnit,
): Promise<number[]> {
  return audienceOf(await (people ?? domain.readModel).activeUsersInRealm(actor.realm.id), channel, subscriberIds);
}

/** `channelAudience` among users already read. */
export function audienceOf(users: readonly User[], channel: Channel, subscriberIds: readonly number[]): number[] {
  const subscribed = new Set(subscriberIds);
  return users.filter((u) => subscribed.has(u.id) || (channel.inviteOnly ? isAdmin(u) : !isGuest(u))).map((u) => u.id);
}

async function createdEvents(
  store: MessagingStore,
  domain: Domain,
  actor: Actor,
  created: readonly Channel[],
  subscriberIds: readonly number[],
): Promise<OutboxRecord[]> {
  if (created.length === 0) return [];
  const groups = new GroupValueFormatter(domain, actor.realm, store.people);
  const audience = new Set<number>();
  for (const channel of created)
    for (const id of await channelAudience(domain, actor, channel, subscriberIds, store.people)) audience.add(id);
  return [
    outboxRecord(
      contracts.streamCreated,
      {
        streams: await Promise.all(created.map((c) => channelRecord(c, 0, groups))),
        user_ids: [...audience].sort((a, b) => a - b),
      },
      { realmId: actor.realm.id, requestId: actor.requestId },
    ),
  ];
}

function alreadyExists(err: unknown): boolean {
  return err instanceof ChannelNameTaken;
}

/**
 * POST /users/me/subscriptions: subscribes the caller (or `principals`) to the named channels, creating the missing
 * ones with the request's settings, as Zulip's add_subscriptions_backend does.
 */
export async function subscribeToChannels(
  domain: Domain,
  actor: Actor,
  input: {
    subscriptions: readonly ChannelSpec[];
    principals: readonly (number | string)[] | undefined;
    authorizationErrorsFatal: boolean;
    settings: NewChannelSettings;
  },
): Promise<Record<string, unknown>> {
  if (isGuest(actor.user)) throw invalid('Not allowed for guest users');
  const specs = new Map<string, ChannelSpec>();
  const colorFor = new Map<string, string>();
  for (const raw of input.subscriptions) {
    const name = raw.name.trim();
    checkChannelName(name);
    checkChannelDescription(raw.description ?? '');
    if (raw.color !== undefined) {
      // Zulip's check_color, with the name its validator reports.
      if (!/^#[0-9a-fA-F]{6}$/.test(raw.color)) throw invalid('add.color is not a valid hex color code');
      colorFor.set(name, raw.color);
    }
    if (!specs.has(name.toLowerCase()))
      specs.set(name.toLowerCase(), { name, description: (raw.description ?? '').replace(/\n/g, ' ') });
  }
  const principals = input.principals ?? [];
  const subscribingOthers =
    principals.length > 0 && !principals.every((p) => p === actor.user.id || p === actor.user.email);
  const subscribers = subscribingOthers ? await principalsToUsers(domain, actor, principals) : [actor.user];

  try {
    const outcome = await domain.db.write(actor.realm.id, async (store) => {
      const existing = await store.channels.channelsByNames(actor.realm.id, [...specs.keys()]);
      const missing = [...specs.values()].filter((s) => !existing.has(s.name.toLowerCase()));
      if (missing.length > 0) await checkCanCreate(domain, actor, input.settings);

      const subs = await store.channels.subscriptionsFor(
        actor.user.id,
        [...existing.values()].map((c) => c.id),
      );
      const authorized: Channel[] = [];
      const unauthorized: Channel[] = [];
      for (const channel of existing.values()) {
        const ok =
          !channel.isArchived &&
          basicAccess(actor, channel, subs.get(channel.id)?.active ? subs.get(channel.id) : null);
        (ok ? authorized : unauthorized).push(channel);
      }
      if (unauthorized.length > 0 && input.authorizationErrorsFatal) {
        throw invalid(`Unable to access channel (${unauthorized[0]!.name}).`);
      }
      if (subscribingOthers && !(await canSubscribeOthers(domain, actor, authorized))) throw insufficientPermission();

      const created = await createChannels(store, domain, actor, missing, input.settings);
      const targets = [...authorized, ...created];
      const { added, events, already } = await addSubscriptions(store, domain, actor, targets, subscribers, colorFor);
      const createdSubscribers = added.filter((s) => created.some((c) => c.id === s.channelId)).map((s) => s.userId);
      const allEvents = [
        ...(await createdEvents(store, domain, actor, created, createdSubscribers)),
        ...events,
        ...(input.settings.isDefaultStream ? await makeDefault(store, actor, created) : []),
      ];

      const byId = new Map(targets.map((c) => [c.id, c]));
      const subscribed: Record<string, string[]> = {};
      for (const sub of added) (subscribed[String(sub.userId)] ??= []).push(byId.get(sub.channelId)!.name);
      const alreadySubscribed: Record<string, string[]> = {};
      for (const { userId, channel } of already) (alreadySubscribed[String(userId)] ??= []).push(channel.name);
      const result: Record<string, unknown> = { subscribed, already_subscribed: alreadySubscribed };
      if (!input.authorizationErrorsFatal) result.unauthorized = unauthorized.map((c) => c.name);
      return { result: { result, created }, events: allEvents };
    });
    for (const channel of outcome.created) domain.directory.forgetChannelName(actor.realm.id, channel.name);
    return outcome.result;
  } catch (err) {
    // Two requests created the same channel at once: the loser retries and finds it existing.
    if (alreadyExists(err)) return subscribeToChannels(domain, actor, input);
    throw err;
  }
}

/** Zulip's get_streams_to_which_user_cannot_add_subscribers, for channels the caller can access. */
async function canSubscribeOthers(domain: Domain, actor: Actor, channels: readonly Channel[]): Promise<boolean> {
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'can_add_subscribers_group')) return true;
  if (isAdmin(actor.user)) return true;
  if (isGuest(actor.user)) return channels.length === 0;
  for (const channel of channels) {
    const administers = await domain.permissions.has(
      actor.user,
      actor.realm,
      channel.permissions.can_administer_channel_group,
    );
    const adds =
      administers ||
      (await domain.permissions.has(actor.user, actor.realm, channel.permissions.can_add_subscribers_group));
    if (!adds) return false;
  }
  return true;
}

/** POST /channels/create: creates one channel and subscribes `subscribers` to it. */
export async function createChannel(
  domain: Domain,
  actor: Actor,
  input: { name: string; description: string; subscribers: readonly number[]; settings: NewChannelSettings },
): Promise<{ id: number }> {
  if (isGuest(actor.user)) throw invalid('Not allowed for guest users');
  const name = input.name.trim();
  checkChannelName(name);
  checkChannelDescription(input.description);
  const exists = () =>
    new ConfabError(`Channel '${name}' already exists`, { code: 'CHANNEL_ALREADY_EXISTS', status: 409 });
  if (await domain.channels.channelByName(actor.realm.id, name)) throw exists();
  await checkCanCreate(domain, actor, input.settings);
  const others = input.subscribers.filter((id) => id !== actor.user.id);
  const subscribers = input.subscribers.length ? await principalsToUsers(domain, actor, input.subscribers) : [];
  if (
    others.length > 0 &&
    !(await domain.permissions.realmPermission(actor.user, actor.realm, 'can_add_subscribers_group')) &&
    !isAdmin(actor.user)
  ) {
    throw insufficientPermission();
  }
  try {
    const channel = await domain.db.write(actor.realm.id, async (store) => {
      const [created] = await createChannels(
        store,
        domain,
        actor,
        [{ name, description: input.description.replace(/\n/g, ' ') }],
        input.settings,
      );
      const { added, events } = await addSubscriptions(store, domain, actor, [created!], subscribers, new Map());
      const allEvents = [
        ...(await createdEvents(
          store,
          domain,
          actor,
          [created!],
          added.map((s) => s.userId),
        )),
        ...events,
        ...(input.settings.isDefaultStream ? await makeDefault(store, actor, [created!]) : []),
      ];
      return { result: created!, events: allEvents };
    });
    domain.directory.forgetChannelName(actor.realm.id, channel.name);
    return { id: channel.id };
  } catch (err) {
    if (alreadyExists(err)) throw exists();
    throw err;
  }
}

/** DELETE /users/me/subscriptions. */
