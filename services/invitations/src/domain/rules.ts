import { randomBytes } from 'node:crypto';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER, type Role } from '@confab/identity';
import type { Caller, Invite } from './types.js';

/** Zulip's Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH, in code points. */
export const MAX_WELCOME_TEXT_LENGTH = 8000;
export const INVITE_ROLES = [ROLE_OWNER, ROLE_ADMINISTRATOR, ROLE_MODERATOR, ROLE_MEMBER, ROLE_GUEST] as const;
const MINUTE_MS = 60_000;

export const insufficientPermission = () => invalid('Insufficient permission');
export const noSuchInvitation = () => invalid('No such invitation');

/** Zulip's @require_member_or_admin. */
export function requireMemberOrAdmin(caller: Caller): void {
  if (caller.role === ROLE_GUEST) throw invalid('Not allowed for guest users');
  if (caller.isBot) throw invalid('This endpoint does not accept bot requests.');
}

/** A user may invite at their own role or a more restricted one (a larger number), never above it. */
export function checkInviteAs(caller: Caller, inviteAs: Role): void {
  if (inviteAs < caller.role) throw insufficientPermission();
}

/** Null never expires; otherwise `minutes` from `now`. */
export function expiryFrom(now: Date, minutes: number | null): Date | null {
  return minutes === null ? null : new Date(now.getTime() + minutes * MINUTE_MS);
}

/**
 * Only administrators choose the welcome text; for anyone else the stored value is null (the organization's
 * default). Null means the default text, the empty string no welcome message.
 */
export function welcomeTextFor(caller: Caller, text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  return caller.role <= ROLE_ADMINISTRATOR ? text : null;
}

/** The message a person gets after joining, or null for none. */
export function welcomeMessage(invite: Pick<Invite, 'welcomeMessageCustomText'>, defaultText: string): string | null {
  const text = invite.welcomeMessageCustomText ?? defaultText;
  return text.trim() === '' ? null : text;
}

export type LinkState = 'active' | 'expired' | 'revoked';

export function linkState(invite: Pick<Invite, 'expiresAt' | 'revokedAt'>, now: Date): LinkState {
  if (invite.revokedAt) return 'revoked';
  if (invite.expiresAt && invite.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** Zulip's confirmation keys: 24 lower-case letters and digits. */
export function generateKey(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

export function isWellFormedKey(key: string): boolean {
  return /^[a-z0-9]{24}$/.test(key);
}

export function inviteLink(invite: Pick<Invite, 'realmUrl' | 'key'>): string {
  return `${invite.realmUrl.replace(/\/+$/, '')}/join/${invite.key}/`;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** An entry of GET /invites (Zulip's multiuse invite dictionary). */
export function inviteDict(invite: Invite): Record<string, unknown> {
  const common = {
    id: invite.id,
    invited_by_user_id: invite.referrerId,
    invited: seconds(invite.createdAt),
    expiry_date: invite.expiresAt ? seconds(invite.expiresAt) : null,
    invited_as: invite.inviteAs,
    notify_referrer_on_join: invite.notifyReferrerOnJoin,
  };
  // Email invitations show the address; links, their URL.
  if (invite.email !== null) return { ...common, email: invite.email, is_multiuse: false };
  return { ...common, link_url: inviteLink(invite), is_multiuse: true };
}

/** Administrators manage every link of their organization; others only the links they made (Zulip's rule). */
export function canManage(caller: Caller, invite: Pick<Invite, 'referrerId' | 'inviteAs'>): boolean {
  if (invite.referrerId === caller.userId) return true;
  if (caller.role > ROLE_ADMINISTRATOR) return false;
  return invite.inviteAs !== ROLE_OWNER || caller.role === ROLE_OWNER;
}
