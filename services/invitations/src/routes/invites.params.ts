import { p, t } from '@confab/http';
import { INVITE_ROLES, MAX_WELCOME_TEXT_LENGTH } from '../domain/rules.js';

/**
 * An expiry must still be a date: about 7,600 years ahead (Zulip's Python datetime ends at year 9999; a JavaScript
 * Date and PostgreSQL end later). Longer answers "invite_expires_in_minutes is too large".
 */
const MAX_INVITE_EXPIRY_MINUTES = 4_000_000_000;

/** POST /invites/multiuse (docs/api.md): every parameter optional, defaults as Zulip's. */
export const multiuseInviteParams = {
  invite_expires_in_minutes: p.json(t.nullable(t.int({ min: 1, max: MAX_INVITE_EXPIRY_MINUTES }))).optional(),
  invite_as: p.json(t.literal(...INVITE_ROLES)).default(400),
  stream_ids: p.json(t.nullable(t.list(t.int()))).default(null),
  group_ids: p.json(t.nullable(t.list(t.int()))).default(null),
  include_realm_default_subscriptions: p.bool().default(false),
  welcome_message_custom_text: p.string({ maxLength: MAX_WELCOME_TEXT_LENGTH }).optional(),
};

/** POST /invites (Zulip's invite_users_backend): stream_ids is required, as in Zulip. */
export const emailInviteParams = {
  invitee_emails: p.string(),
  invite_expires_in_minutes: p.json(t.nullable(t.int({ min: 1, max: MAX_INVITE_EXPIRY_MINUTES }))).optional(),
  invite_as: p.json(t.literal(...INVITE_ROLES)).default(400),
  stream_ids: p.json(t.list(t.int())),
  group_ids: p.json(t.nullable(t.list(t.int()))).default(null),
  include_realm_default_subscriptions: p.bool().default(false),
  notify_referrer_on_join: p.bool().default(true),
  welcome_message_custom_text: p.string({ maxLength: MAX_WELCOME_TEXT_LENGTH }).optional(),
};
