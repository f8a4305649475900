import { timingSafeEqual } from 'node:crypto';
import { ROLE_MEMBER } from '@confab/identity';
import { deactivateAccount, reactivateAccount, renameAccount } from '../accounts.js';
import { isValidEmail } from '../auth.js';
import type { PresenceStore } from '../ports.js';
import { createUsers, type ProvisioningContext } from '../provisioning.js';
import type { Realm, User } from '../types.js';

/**
 * SCIM 2.0 provisioning of users (RFC 7643/7644, as Zulip's zerver/lib/scim.py serves Okta and Entra ID): list with a
 * `userName eq "…"` filter, read, create, replace, patch (both deactivation forms) and delete, with a bearer token
 * per organization. `id` is the user id as a string; deactivation is the admin API's own (deactivateAccount).
 */

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
    this.name = 'ScimError';
  }

  body(): Record<string, unknown> {
    return {
      schemas: [SCIM_ERROR_SCHEMA],
      detail: this.message,
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
    };
  }
}

/** Whether the bearer token is the organization's (CONFAB_SCIM_TOKENS), compared in constant time. */
export function scimAuthorized(
  tokens: Record<string, string>,
  realm: Realm,
  authorization: string | undefined,
): boolean {
  const expected = tokens[realm.stringId];
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!expected || !match) return false;
  const a = Buffer.from(match[1]!);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `userName eq "value"` (the one filter provisioning clients send); anything else is invalidFilter. */
export function parseFilter(filter: string | undefined): { userName: string } | null {
  if (filter === undefined || filter.trim() === '') return null;
  const match = /^\s*userName\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  if (!match) throw new ScimError(400, `Unsupported filter: ${filter}`, 'invalidFilter');
  return { userName: match[1]!.replace(/\\(.)/g, '$1') };
}

export interface UserChange {
  active?: boolean;
  fullName?: string;
  userName?: string;
}

function boolOf(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  // Entra ID sends "False" / "True" as strings.
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, `Invalid value for active: ${JSON.stringify(value)}`, 'invalidValue');
}

function nameOf(resource: Record<string, unknown>): string | undefined {
  const name = resource.name as Record<string, unknown> | undefined;
  if (name && typeof name.formatted === 'string' && name.formatted.trim() !== '') return name.formatted;
  if (typeof resource.displayName === 'string' && resource.displayName.trim() !== '') return resource.displayName;
  if (name && (typeof name.givenName === 'string' || typeof name.familyName === 'string')) {
    return [name.givenName, name.familyName].filter((v) => typeof v === 'string' && v !== '').join(' ');
  }
  return undefined;
}

/** The attributes a full resource (POST, PUT) sets. */
export function changeOfResource(resource: unknown): UserChange {
  if (typeof resource !== 'object' || resource === null)
    throw new ScimError(400, 'The body must be a SCIM User', 'invalidSyntax');
  const r = resource as Record<string, unknown>;
  const change: UserChange = {};
  if (typeof r.userName === 'string') change.userName = r.userName.trim();
  const name = nameOf(r);
  if (name !== undefined) change.fullName = name;
  if (r.active !== undefined) change.active = boolOf(r.active);
  return change;
}

/**
 * A PatchOp's operations (RFC 7644 §3.5.2): `replace` (or `add`) of `active`, `name.formatted`, `displayName`, with a
 * path, or without one and an object value (Okta's `{"op":"replace","value":{"active":false}}`).
 */
export function changeOfPatch(body: unknown): UserChange {
  const ops = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(ops)) throw new ScimError(400, 'A PatchOp needs Operations', 'invalidSyntax');
  const change: UserChange = {};
  for (const raw of ops) {
    const op = raw as { op?: unknown; path?: unknown; value?: unknown };
    const kind = typeof op.op === 'string' ? op.op.toLowerCase() : '';
    if (kind !== 'replace' && kind !== 'add')
      throw new ScimError(400, `Unsupported operation: ${String(op.op)}`, 'invalidSyntax');
    if (op.path === undefined) {
      if (typeof op.value !== 'object' || op.value === null)
        throw new ScimError(400, 'A value object is required', 'invalidValue');
      const value = op.value as Record<string, unknown>;
      if (value.active !== undefined) change.active = boolOf(value.active);
      const name = typeof value['name.formatted'] === 'string' ? value['name.formatted'] : nameOf(value);
      if (name !== undefined) change.fullName = name;
      if (typeof value.userName === 'string') change.userName = value.userName.trim();
      continue;
    }
    const path = typeof op.path === 'string' ? op.path : '';
    if (/^active$/i.test(path)) change.active = boolOf(op.value);
    else if (/^(name\.formatted|displayName)$/i.test(path) && typeof op.value === 'string') change.fullName = op.value;
    else if (/^userName$/i.test(path) && typeof op.value === 'string') change.userName = op.value.trim();
    else throw new ScimError(400, `Unsupported path: ${path}`, 'invalidPath');
  }
  return change;
}

/** The SCIM User of an account. */
export function userResource(user: User, baseUrl: string): Record<string, unknown> {
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: String(user.id),
    userName: user.deliveryEmail,
    name: { formatted: user.fullName },
    displayName: user.fullName,
    emails: [{ type: 'work', primary: true, value: user.deliveryEmail }],
    active: user.isActive,
    meta: { resourceType: 'User', location: `${baseUrl}/scim/v2/Users/${user.id}` },
  };
}

export interface ScimContext {
  provisioning: ProvisioningContext;
  presence: PresenceStore;
  baseUrl: string;
}

const notFound = (id: string) => new ScimError(404, `No user with id ${id}`);

async function userOf(ctx: ScimContext, realm: Realm, id: string): Promise<User> {
  if (!/^\d{1,10}$/.test(id)) throw notFound(id);
  const user = await ctx.provisioning.db.store.users.byId(Number(id));
  if (!user || user.realmId !== realm.id || user.isBot) throw notFound(id);
  return user;
}

export async function listUsers(
  ctx: ScimContext,
  realm: Realm,
  query: { filter?: string | undefined; startIndex?: number; count?: number },
): Promise<Record<string, unknown>> {
  const filter = parseFilter(query.filter);
  let users: User[];
  if (filter) {
    const found = await ctx.provisioning.db.store.users.byEmail(realm.id, filter.userName);
    users = found && !found.isBot ? [found] : [];
  } else {
    users = (await ctx.provisioning.db.store.users.inRealm(realm.id)).filter((u) => !u.isBot);
  }
  const start = Math.max(1, query.startIndex ?? 1);
  const count = Math.min(Math.max(0, query.count ?? 100), 1000);
  const page = users.slice(start - 1, start - 1 + count);
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: users.length,
    itemsPerPage: page.length,
    startIndex: start,
    Resources: page.map((u) => userResource(u, ctx.baseUrl)),
  };
}

export async function getUser(ctx: ScimContext, realm: Realm, id: string): Promise<Record<string, unknown>> {
  return userResource(await userOf(ctx, realm, id), ctx.baseUrl);
}

export async function createUser(ctx: ScimContext, realm: Realm, resource: unknown): Promise<Record<string, unknown>> {
  const change = changeOfResource(resource);
  if (!change.userName || !isValidEmail(change.userName)) {
    throw new ScimError(400, 'userName must be an email address', 'invalidValue');
  }
  if (await ctx.provisioning.db.store.users.byEmail(realm.id, change.userName)) {
    throw new ScimError(409, 'Email address already in use', 'uniqueness');
  }
  const [made] = await createUsers(ctx.provisioning, realm, [
    {
      email: change.userName,
      fullName: change.fullName ?? change.userName.split('@')[0]!,
      role: ROLE_MEMBER,
      password: null,
    },
  ]);
  let user = made!.user;
  if (change.active === false) {
    await deactivateAccount(
      { db: ctx.provisioning.db, presence: ctx.presence },
      user,
      ctx.provisioning.requestId ?? 'scim',
    );
    user = (await ctx.provisioning.db.store.users.byId(user.id)) ?? user;
  }
  return userResource(user, ctx.baseUrl);
}

/** PUT and PATCH: the name, and active (deactivation and reactivation through the admin API's own steps). */
export async function updateUser(
  ctx: ScimContext,
  realm: Realm,
  id: string,
  change: UserChange,
): Promise<Record<string, unknown>> {
  const user = await userOf(ctx, realm, id);
  const requestId = ctx.provisioning.requestId ?? 'scim';
  const db = ctx.provisioning.db;
  if (change.userName !== undefined && change.userName.toLowerCase() !== user.deliveryEmail.toLowerCase()) {
    throw new ScimError(400, 'Changing userName (the email address) is not supported', 'mutability');
  }
  if (change.fullName !== undefined) {
    const fresh = (await db.store.users.byId(user.id)) ?? user;
    await renameAccount(db, fresh, change.fullName, requestId);
  }
  if (change.active === false && user.isActive) {
    try {
      await deactivateAccount({ db, presence: ctx.presence }, user, requestId);
    } catch (err) {
      throw new ScimError(400, (err as Error).message);
    }
  } else if (change.active === true && !user.isActive) {
    await reactivateAccount(db, user, requestId);
  }
  return userResource((await db.store.users.byId(user.id)) ?? user, ctx.baseUrl);
}
