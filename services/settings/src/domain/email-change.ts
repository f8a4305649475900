import { apiEmailFor } from './email-visibility.js';
import { createHash, randomBytes } from 'node:crypto';
import { contracts, outboxRecord } from '@confab/events';
import { ConfabError, invalid, rateLimited } from '@confab/errors';
import { ROLE_ADMINISTRATOR } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { FailureLimiter } from './auth.js';
import { isValidEmail } from './auth.js';
import type { Mailer } from './ports.js';
import { realmUrl } from './realms.js';
import { AlreadyExists, type Database } from './store.js';
import { EMAIL_CHANGE_PENDING, EMAIL_CHANGE_REPLACED, type EmailChange, type Realm, type User } from './types.js';
import { userRecord } from './users.js';

export interface EmailChangeContext {
  db: Database;
  emailChangeLimiter: FailureLimiter;
  mailer: Mailer;
  logger: Logger;
  config: { externalUrl: string; mail: { linkValiditySeconds: number } };
}

export const CONFIRM_PATH = '/accounts/confirm_new_email';

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** 24 random lower-case letters and digits, like Zulip's confirmation keys (124 bits). */
function generateKey(): string {
  let key = '';
  while (key.length < 24) {
    for (const byte of randomBytes(32)) {
      // 252 = 7 × 36: rejecting larger bytes keeps every character equally likely.
      if (byte < 252 && key.length < 24) key += KEY_ALPHABET[byte % 36];
    }
  }
  return key;
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const disabledError = () => invalid('Email address changes are disabled in this organization.');

/** Zulip's validate_email_change_request: the organization's policy, a valid address, not anyone's already. */
export async function validateEmailChange(
  ctx: EmailChangeContext,
  realm: Realm,
  user: User,
  isAdmin: boolean,
  newEmail: string,
): Promise<void> {
  if (realm.emailChangesDisabled && !isAdmin) throw disabledError();
  if (!isValidEmail(newEmail)) throw invalid('Invalid address.');
  const existing = await ctx.db.store.users.byEmail(realm.id, newEmail);
  if (existing && existing.id !== user.id)
    throw invalid(existing.isActive ? 'Already has an account.' : 'Account has been deactivated.');
  if (!ctx.mailer.enabled) throw invalid('Outgoing email is not configured on this server.');
}

/** Records the request and mails the confirmation link to the new address; the address changes when it is opened. */
export async function startEmailChange(
  ctx: EmailChangeContext,
  realm: Realm,
  user: User,
  newEmail: string,
  requestId: string,
): Promise<void> {
  const limiterKey = String(user.id);
  const wait = await ctx.emailChangeLimiter.retryAfter(limiterKey);
  if (wait > 0) throw rateLimited(wait);
  await ctx.emailChangeLimiter.recordFailure(limiterKey);
  const key = generateKey();
  const request = await ctx.db.write(async (store) => ({
    result: await store.emailChanges.create({
      userId: user.id,
      oldEmail: user.deliveryEmail,
      newEmail,
      keyHash: hashKey(key),
      expiresAt: new Date(Date.now() + ctx.config.mail.linkValiditySeconds * 1000),
    }),
    events: [],
  }));
  const base = realmUrl(realm, ctx.config.externalUrl);
  const link = `${base}${CONFIRM_PATH}/${key}`;
  const days = Math.max(1, Math.round(ctx.config.mail.linkValiditySeconds / 86_400));
  try {
    await ctx.mailer.send({
      to: newEmail,
      subject: `Verify your new email address for ${new URL(base).host}`,
      text: [
        `Hi ${user.fullName},`,
        '',
        `We received a request to change the email address for the account on ${base} (${realm.name}) from ${user.deliveryEmail} to ${newEmail}.`,
        '',
        'To confirm this change, open this link:',
        '',
        link,
        '',
        `The link works for ${days === 1 ? 'one day' : `${days} days`}. If you did not request this change, ignore this email: your address stays as it is.`,
      ].join('\n'),
    });
  } catch (err) {
    ctx.logger.error({ err, request_id: requestId }, 'sending the email-change confirmation failed');
    await ctx.db.store.emailChanges.setStatus(request.id, EMAIL_CHANGE_REPLACED).catch(() => undefined);
    throw new ConfabError('The confirmation email could not be sent; try again later.', {
      status: 502,
      code: 'EMAIL_SEND_FAILED',
    });
  }
}

export type LinkProblem = 'not_found' | 'expired' | 'used';

/** What a confirmation link stands for, or why it no longer works. */
export async function inspectEmailChangeLink(ctx: EmailChangeContext, key: string): Promise<EmailChange | LinkProblem> {
  const request = await ctx.db.store.emailChanges.byKeyHash(hashKey(key));
  if (!request) return 'not_found';
  if (request.status !== EMAIL_CHANGE_PENDING) return 'used';
  if (request.expiresAt <= new Date()) return 'expired';
  return request;
}

export type ConfirmOutcome =
  | { kind: 'changed'; oldEmail: string; newEmail: string }
  | { kind: 'link'; problem: LinkProblem }
  | { kind: 'refused'; message: string };

/**
 * Opening the link (Zulip's confirm_email_change): the change is re-validated and applied in one transaction,
 * the key is used up, `user.updated` is published, and the old address is told.
 */
export async function confirmEmailChange(
  ctx: EmailChangeContext,
  key: string,
  requestId: string,
): Promise<ConfirmOutcome> {
  const found = await inspectEmailChangeLink(ctx, key);
  if (typeof found === 'string') return { kind: 'link', problem: found };
  let outcome: ConfirmOutcome;
  try {
    outcome = await ctx.db.write<ConfirmOutcome>(async (store) => {
      if (!(await store.emailChanges.claim(found.id, new Date())))
        return { result: { kind: 'link', problem: 'used' }, events: [] };
      const user = await store.users.lock(found.userId);
      const realm = user && (await store.realms.byId(user.realmId));
      // A newer change already went through: this link describes an address the account no longer has.
      if (!user || !realm || user.deliveryEmail !== found.oldEmail)
        return { result: { kind: 'link', problem: 'expired' }, events: [] };
      if (realm.deactivated) throw invalid('This organization has been deactivated');
      if (!user.isActive) throw invalid('Account is deactivated');
      if (realm.emailChangesDisabled && user.role > ROLE_ADMINISTRATOR) throw disabledError();
      const existing = await store.users.byEmail(realm.id, found.newEmail);
      if (existing && existing.id !== user.id)
        throw invalid(existing.isActive ? 'Already has an account.' : 'Account has been deactivated.');
      const updated = await store.users.update(user.id, {
        email: found.newEmail,
        apiEmail: apiEmailFor(
          { id: user.id, deliveryEmail: found.newEmail },
          user.emailAddressVisibility,
          realm,
          ctx.config.externalUrl,
        ),
      });
      return {
        result: { kind: 'changed', oldEmail: found.oldEmail, newEmail: found.newEmail },
        events: [
          outboxRecord(contracts.userUpdated, { user: userRecord(updated) }, { realmId: user.realmId, requestId }),
        ],
      };
    });
  } catch (err) {
    if (err instanceof ConfabError) return { kind: 'refused', message: err.message };
    if (err instanceof AlreadyExists) return { kind: 'refused', message: 'Already has an account.' };
    throw err;
  }
  if (outcome.kind === 'changed') await notifyOldAddress(ctx, found, requestId);
  return outcome;
}

async function notifyOldAddress(ctx: EmailChangeContext, change: EmailChange, requestId: string): Promise<void> {
  try {
    await ctx.mailer.send({
      to: change.oldEmail,
      subject: 'Your email address has been changed',
      text: `The email address of your account was changed from ${change.oldEmail} to ${change.newEmail}.\n\nIf you did not make this change, contact your organization's administrators right away.`,
    });
  } catch (err) {
    // The change itself is done; a lost notice is logged, not reported to the person confirming.
    ctx.logger.warn({ err, request_id: requestId }, 'notifying the old email address failed');
  }
}
