import { z } from 'zod';
import { groupRecord, groupSettingValue } from './contracts/groups.js';
import { realmEmojiRecord } from './contracts/realm_emoji.js';
import { realmRecord } from './contracts/realms.js';
import { userRecord } from './contracts/users.js';

/**
 * The answers of internal endpoints one service reads from another (`/internal/...`, docs/architecture.md
 * "Identity"), as zod schemas: the caller parses what it receives with them (ServiceClient.call of @confab/http),
 * so a change of shape on either side fails loudly instead of reading undefined.
 */

/** Settings: `GET /internal/realms?after_id=N`, organizations in id order. */
export const realmsPage = z.object({ realms: z.array(realmRecord) });
/** Settings: `GET /internal/users?after_id=N`, users in id order. */
export const usersPage = z.object({ users: z.array(userRecord) });

/** Settings: `GET /internal/realm_emoji?after_id=N`, organizations' custom emoji in organization id order. */
export const realmEmojiPage = z.object({
  realms: z.array(z.object({ realm_id: z.number().int(), realm_emoji: z.record(z.string(), realmEmojiRecord) })),
});
/** Settings: `GET /internal/personal_filters?after_id=N`, users' muted users and alert words in user id order. */
export const personalFiltersPage = z.object({
  users: z.array(
    z.object({
      user_id: z.number().int(),
      realm_id: z.number().int(),
      muted_user_ids: z.array(z.number().int()),
      alert_words: z.array(z.string()),
    }),
  ),
});

/** Settings: `GET /internal/presence/away?realm_id=N&user_ids=[…]`, which of these users are away (no recent activity). */
export const awayUsers = z.object({ away_user_ids: z.array(z.number().int()) });

/** Settings: `GET /internal/user_settings?after_id=N`, users' whole personal settings in user id order. */
export const userSettingsPage = z.object({
  user_settings: z.array(
    z.object({ user_id: z.number().int(), realm_id: z.number().int(), settings: z.record(z.string(), z.unknown()) }),
  ),
});

/**
 * Settings: `GET /internal/bots/{bot_id}/services`, where an outgoing webhook bot's messages are posted (Zulip's
 * Service rows: the URL, the payload format, 1 Zulip's or 2 Slack's, and the token); empty for any other user.
 */
export const botServices = z.object({
  services: z.array(
    z.object({ name: z.string(), base_url: z.string(), interface: z.number().int(), token: z.string() }),
  ),
});

/** Messaging: `GET /internal/users/{user_id}/max_message_id`, the newest message the user received (-1: none). */
export const maxMessageId = z.object({ max_message_id: z.number().int() });

/** Messaging: `GET /internal/realms/{realm_id}/channels/{channel_id}`, whether an unarchived channel exists there. */
export const channelExists = z.object({ exists: z.boolean() });

/** Groups: `POST /internal/groups/evaluate`, whether a user is in a group-valued setting. */
export const groupMembership = z.object({ is_member: z.boolean() });
/** Groups: `GET /internal/groups/members`, the active members of groups (through subgroups). */
export const groupMembers = z.object({ user_ids: z.array(z.number().int()) });
/** Groups: `GET /internal/groups?after_id=N`, groups in id order. */
export const groupsPage = z.object({ groups: z.array(z.object({ group: groupRecord })) });
/** The same page with each group's direct members and subgroups (an organization's export). */
export const groupsWithMembersPage = z.object({
  groups: z.array(
    z.object({ group: groupRecord, direct_members: z.array(z.number().int()), direct_subgroups: z.array(z.number().int()) }),
  ),
});

/** Any JSON object: an answer the caller reads field by field itself. */
export const anyObject = z.record(z.string(), z.unknown());

/**
 * An internal endpoint that takes a JSON body: its method and path, the request it accepts and the answer it gives.
 * The caller builds the request and reads the answer with these schemas, and the called service parses the request
 * with the same one (ServiceClient.send and readBody of @confab/http), so both sides agree by construction.
 */
export interface InternalEndpoint<Req, Res> {
  method: 'POST';
  path: string;
  request: z.ZodType<Req>;
  response: z.ZodType<Res>;
}

const endpoint = <Req, Res>(
  path: string,
  request: z.ZodType<Req>,
  response: z.ZodType<Res>,
): InternalEndpoint<Req, Res> => ({ method: 'POST', path, request, response });

const id = z.number().int();
const ids = z.array(id);
const role = z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]);
/** The member an invitation's checks are made for: its creator. */
const invitationCreator = z.object({ realm_id: id, user_id: id, role, is_bot: z.boolean() });

/** The internal endpoints with a JSON body, by the service that serves them. */
export const endpoints = {
  /** Groups: whether a user holds a group-valued setting (a group id, an anonymous group, or "role:…"). */
  evaluateGroupSetting: endpoint(
    '/groups/evaluate',
    z.object({ realm_id: id, user_id: id, value: z.union([groupSettingValue, z.string()]) }),
    groupMembership,
  ),
  /** Groups: whether an invitation's creator may grant these groups (a Zulip error if not). */
  checkInvitationGroups: endpoint('/invitations/check', invitationCreator.extend({ group_ids: ids }), anyObject),
  /** Groups: the person who joined through an invitation joins its groups. */
  joinInvitationGroups: endpoint(
    '/invitations/join',
    z.object({ realm_id: id, user_id: id, group_ids: ids }),
    z.object({ added_group_ids: ids }),
  ),
  /** Messaging: whether an invitation's creator may subscribe others to these channels (a Zulip error if not). */
  checkInvitationChannels: endpoint(
    '/invitations/streams/check',
    invitationCreator.extend({ stream_ids: ids }),
    anyObject,
  ),
  /** Messaging: the person who joined through an invitation is subscribed to its channels. */
  subscribeInvitedUser: endpoint(
    '/invitations/streams/subscribe',
    z.object({ realm_id: id, user_id: id, stream_ids: ids, include_realm_default_subscriptions: z.boolean() }),
    z.object({ subscribed_stream_ids: ids }),
  ),
  /** Messaging: the direct message welcoming them, from the invitation's creator. */
  sendWelcome: endpoint(
    '/invitations/welcome',
    z.object({
      realm_id: id,
      sender_id: id,
      recipient_id: id,
      content: z.string(),
      /** Sent by the organization's Notification Bot instead of `sender_id` (an email invitation's referrer notice). */
      from_notification_bot: z.boolean().optional(),
    }),
    z.object({ id }),
  ),
  /**
   * Messaging: what an incoming webhook posts, as its bot, with the webhook's sending client (`ZulipGitHubWebhook`),
   * through the same send path as POST /messages (docs/integrations.md). `stream` is a channel name, or an id when
   * all digits; null sends a direct message to the bot's owner. A channel that does not exist is no failure: its id
   * is null and the owner is told by the Notification Bot, as Zulip's check_send_webhook_message does.
   */
  webhookMessages: endpoint(
    '/webhooks/messages',
    z.object({
      realm_id: id,
      bot_id: id,
      client: z.string().min(1).max(100),
      messages: z.array(z.object({ stream: z.string().nullable(), topic: z.string(), content: z.string() })).max(100),
    }),
    z.object({ ids: z.array(id.nullable()) }),
  ),
  /**
   * Messaging: a direct message from the Notification Bot to a bot's owner about what went wrong with the bot's
   * webhook, at most one a minute per bot (Zulip's send_rate_limited_pm_notification_to_bot_owner).
   */
  webhookOwnerNotice: endpoint(
    '/webhooks/owner_notice',
    z.object({ realm_id: id, bot_id: id, content: z.string().min(1).max(10_000) }),
    z.object({ sent: z.boolean() }),
  ),
  /** Messaging: the webhook's bot, for the texts that name it (Zulip's bot_name, Zapier's authentication test). */
  webhookBot: endpoint(
    '/webhooks/bot',
    z.object({ realm_id: id, bot_id: id }),
    z.object({ user_id: id, full_name: z.string(), email: z.string(), bot_owner_id: id.nullable() }),
  ),
  /**
   * Messaging: the people of the organization an integration names (Jira's assignee by email, its `[~name]`
   * mentions), looked up before its translation runs: each email's user by delivery email (any case; Zulip's
   * get_user_by_delivery_email), and each name's first active user by id whose full name is it (any case) or whose
   * email starts with it (Zulip's guess_zulip_user_from_jira). Absent ones are left out.
   */
  webhookPeople: endpoint(
    '/webhooks/people',
    z.object({
      realm_id: id,
      emails: z.array(z.string().max(254)).max(20),
      names: z.array(z.string().max(200)).max(20),
    }),
    z.object({
      by_email: z.array(z.object({ email: z.string(), full_name: z.string() })),
      by_name: z.array(z.object({ name: z.string(), full_name: z.string() })),
    }),
  ),
  /** Settings: which of these addresses have an account in the organization (Zulip's get_existing_user_errors). */
  existingAccounts: endpoint(
    '/invitations/existing',
    z.object({ realm_id: id, emails: z.array(z.string()) }),
    z.object({ accounts: z.array(z.object({ email: z.string(), deactivated: z.boolean() })) }),
  ),
  /**
   * Settings: the addresses among these that the organization's email rules refuse (its domains, `+`, disposable
   * mail), with POST /invites' texts (Zulip's validate_email_is_valid).
   */
  refusedInvitees: endpoint(
    '/invitations/refused',
    z.object({ realm_id: id, emails: z.array(z.string()) }),
    z.object({ refused: z.array(z.object({ email: z.string(), reason: z.string() })) }),
  ),
  /** Settings: a mail through the server's mail transport (SMTP, or the development capture). */
  sendMail: endpoint(
    '/mail',
    z.object({ to: z.string(), subject: z.string(), text: z.string() }),
    z.object({ sent: z.boolean() }),
  ),
  /**
   * Settings: the person a finished sign-in flow (LDAP, OpenID Connect, SAML in a browser) left a one-time login token
   * for, on the organization the browser's host names, with their API key: the gateway makes the session of it.
   */
  redeemLoginToken: endpoint(
    '/sso/login-token',
    z.object({ token: z.string().max(200), host: z.string().max(300) }),
    z.object({ user_id: id, email: z.string(), api_key: z.string(), next: z.string() }),
  ),
  /**
   * Settings: the account of a person who signed up through an invitation; no password (null) when they signed in
   * with the company's identity (SSO), which vouched for the address.
   */
  createInvitedUser: endpoint(
    '/invitations/users',
    z.object({
      realm_id: id,
      email: z.string().max(254),
      full_name: z.string().max(1000),
      password: z.string().max(1000).nullable(),
      role,
    }),
    z.object({ user: userRecord, event_ids: z.array(z.string()) }),
  ),
  /**
   * Invitations: a person the company's identity provider vouched for signs in for the first time; their pending
   * email invitation (unexpired, unrevoked, unused) is accepted as the sign-up form would, and used up. `user_id`
   * null: there is no pending invitation for the address.
   */
  acceptInvitationBySso: endpoint(
    '/invitations/sso-signup',
    z.object({ realm_id: id, email: z.string().max(254), full_name: z.string().max(1000) }),
    z.object({ user_id: id.nullable() }),
  ),
};

/** What calls another service's internal API (ServiceClient of @confab/http has this shape). */
export interface InternalCaller {
  call<T>(
    method: string,
    path: string,
    shape: { parse(body: unknown): T },
    options?: { query?: Record<string, unknown> },
  ): Promise<T>;
}

/**
 * The settings service's organizations and users, page by page in id order: how a service fills its read model of
 * them when its database is new (the backfills of messaging and groups).
 */
export class SettingsReader {
  constructor(protected readonly settings: InternalCaller) {}

  async realmsAfter(afterId: number): Promise<z.infer<typeof realmRecord>[]> {
    return (await this.settings.call('GET', '/realms', realmsPage, { query: { after_id: afterId } })).realms;
  }

  async usersAfter(afterId: number): Promise<z.infer<typeof userRecord>[]> {
    return (await this.settings.call('GET', '/users', usersPage, { query: { after_id: afterId } })).users;
  }
}
